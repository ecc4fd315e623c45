/**
 * The README's commands run as written (issue 32, item 6): each fenced block the README marks with
 * `<!-- readme-test: NAME -->` is run by bash in an empty folder outside the clone, `npx conformance`
 * and `npx tsx` answered by this checkout (as an installed package or a clone's `npx` would), and
 * must exit 0. The README cannot drift from what works.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './support/cli.ts';

/** The marked blocks of the README, by name. */
function markedBlocks(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of markdown.matchAll(/<!-- readme-test: ([\w-]+) -->\s*\n```(?:sh|bash)\n([\s\S]*?)\n```/g))
    out.set(m[1] as string, m[2] as string);
  return out;
}

/** A folder of shims: `npx conformance` and `conformance` run this checkout's command, `npx tsx` its tsx. */
function shims(): string {
  const dir = mkdtempSync(join(tmpdir(), 'readme-bin-'));
  const cli = `node ${JSON.stringify(join(ROOT, 'bin', 'conformance.mjs'))}`;
  const npx = `#!/usr/bin/env bash
case "$1" in
  conformance) shift; exec ${cli} "$@" ;;
  tsx) shift; exec ${JSON.stringify(join(ROOT, 'node_modules', '.bin', 'tsx'))} "$@" ;;
  *) echo "npx shim: $1 is not a command of this checkout" >&2; exit 127 ;;
esac
`;
  writeFileSync(join(dir, 'npx'), npx);
  writeFileSync(join(dir, 'conformance'), `#!/usr/bin/env bash\nexec ${cli} "$@"\n`);
  for (const f of ['npx', 'conformance']) chmodSync(join(dir, f), 0o755);
  return dir;
}

function runBlock(block: string, cwd: string, bin: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', block], {
      cwd,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, CONFORMANCE_PROGRESS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('the README commands', () => {
  test('the marked blocks are found', () => {
    expect([...markedBlocks(README).keys()]).toContain('certify-recipe');
  });

  test.each([...markedBlocks(README).entries()])(
    '%s runs as written from an empty folder',
    async (_name, block) => {
      const cwd = mkdtempSync(join(tmpdir(), 'readme-'));
      mkdirSync(cwd, { recursive: true });
      const r = await runBlock(block, cwd, shims());
      expect(r.code, r.out).toBe(0);
    },
    180_000,
  );
});
