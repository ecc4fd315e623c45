/**
 * The README's runnable blocks (issue 32, item 6). A fenced `sh` block the README marks with
 * `<!-- readme-test: NAME -->` runs as written from an empty folder in test/readmeCommands.test.ts.
 * Two forms of the mark say what the block stands on:
 *
 * - `<!-- readme-test: NAME (given: $URL a server, c.json its config, $CONFORMANCE_* the secrets it
 *   names) -->`: the test starts a sandbox and exports its address as `URL`, writes the sandbox's
 *   config as `c.json` beside the block and puts the secrets it names in the environment (what a CI
 *   job has before running the block);
 * - `<!-- readme-test: NAME (run by: test/FILE.test.ts) -->`: the block needs what only that test
 *   has (a certification service, a packed tarball); that file runs the block's own text, and
 *   readmeCommands.test.ts checks that it does.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.ts';

export interface ReadmeBlock {
  name: string;
  /** The block's text, as the README shows it. */
  text: string;
  /** What the block stands on, from `(given: ...)`: the names before each description. */
  given: string[];
  /** The test file that runs the block, from `(run by: ...)`. */
  runBy?: string;
}

export function readmeBlocks(markdown = readFileSync(join(ROOT, 'README.md'), 'utf8')): Map<string, ReadmeBlock> {
  const out = new Map<string, ReadmeBlock>();
  const mark = /<!-- readme-test: ([\w-]+)(?: \((given|run by): ([^)]*)\))? -->\s*\n```(?:sh|bash)\n([\s\S]*?)\n```/g;
  for (const m of markdown.matchAll(mark)) {
    const [, name, kind, what, text] = m as unknown as [string, string, string | undefined, string | undefined, string];
    out.set(name, {
      name,
      text,
      given: kind === 'given' ? (what ?? '').split(',').map((g) => g.trim().split(/\s+/)[0] as string) : [],
      ...(kind === 'run by' ? { runBy: (what ?? '').trim() } : {}),
    });
  }
  return out;
}

/** One marked block of the README, or an error naming what is missing. */
export function readmeBlock(name: string): ReadmeBlock {
  const block = readmeBlocks().get(name);
  if (!block) throw new Error(`README.md has no block marked <!-- readme-test: ${name} ... -->`);
  return block;
}

/** A folder of shims: `npx conformance` and `conformance` run this checkout's command, `npx tsx` its tsx. */
export function shims(): string {
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

export function runBlock(
  block: string,
  cwd: string,
  bin: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', block], {
      cwd,
      env: { ...process.env, ...extraEnv, PATH: `${bin}:${process.env.PATH}`, CONFORMANCE_PROGRESS: '0' },
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
