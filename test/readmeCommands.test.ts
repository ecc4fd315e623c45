/**
 * The README's commands run as written (issue 32, item 6): each fenced block the README marks with
 * `<!-- readme-test: NAME -->` is run by bash in an empty folder outside the clone, `npx conformance`
 * and `npx tsx` answered by this checkout (as an installed package or a clone's `npx` would), and
 * must exit 0. A block `(given: $URL a server, c.json its config, $CONFORMANCE_* the secrets it names)`
 * gets a sandbox's address as `URL`, the sandbox's config as `c.json` and its demo secrets in the
 * environment, as a CI job has them; a block `(run by: FILE)` is run by that test file, which must
 * read it (test/support/readme.ts). The README cannot drift from what works.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { startSandbox } from '../server/http.ts';
import { ROOT } from './support/cli.ts';
import { readmeBlocks, runBlock, shims } from './support/readme.ts';

const BLOCKS = readmeBlocks();
const here = [...BLOCKS.values()].filter((b) => b.runBy === undefined);
const elsewhere = [...BLOCKS.values()].filter((b) => b.runBy !== undefined);
/**
 * What each given is made of, run before the block in its folder (never shown in the README): a
 * given names what a reader has at hand, and this is how the test has it.
 */
const GIVEN_SETUP: Record<string, string> = {
  $URL: '', // the sandbox this test starts, in the environment
  '$CONFORMANCE_*': '', // the demo secrets, in the environment
  'c.json': `cp ${JSON.stringify(DEMO_CONFIG_FILE)} c.json`,
  'conformance-report':
    'npx conformance start --only lookup-practitioners --quiet --report-dir conformance-report >/dev/null',
  'practice-app-api-family.json': `npx tsx --eval ${JSON.stringify(
    `import(${JSON.stringify(join(ROOT, 'examples', 'partner-consumer', 'writePartnerPact.ts'))}).then(async (m) => (await import('node:fs')).renameSync(await m.writePartnerPact('.given'), 'practice-app-api-family.json'))`,
  )} && rm -r .given`,
};
const KNOWN_GIVENS = Object.keys(GIVEN_SETUP);

describe('the README commands', () => {
  test('the marked blocks are found, and every block given something names what this test gives', () => {
    expect([...BLOCKS.keys()]).toEqual(
      expect.arrayContaining([
        'certify-recipe',
        'baseline-recipe',
        'shard-recipe',
        'compare-recipe',
        'verify-download',
        'install-package',
      ]),
    );
    for (const b of BLOCKS.values()) for (const g of b.given) expect(KNOWN_GIVENS, b.name).toContain(g);
  });

  test.each(elsewhere.map((b) => [b.name, b.runBy as string]))(
    '%s is run by %s, which reads the block from the README',
    (name, file) => {
      expect(
        readFileSync(join(ROOT, file), 'utf8').includes(`readmeBlock('${name}')`),
        `${file} reads readmeBlock('${name}')`,
      ).toBe(true);
    },
  );

  test.each(here.map((b) => [b.name, b]))(
    '%s runs as written from an empty folder',
    async (_name, block) => {
      const cwd = mkdtempSync(join(tmpdir(), 'readme-'));
      const sandbox = block.given.includes('$URL') ? await startSandbox() : undefined;
      try {
        const env = {
          ...(sandbox ? { URL: sandbox.url } : {}),
          ...(block.given.includes('$CONFORMANCE_*') ? DEMO_ENVIRONMENT : {}),
        };
        const bin = shims();
        const setup = block.given.map((g) => GIVEN_SETUP[g]).filter(Boolean);
        if (setup.length > 0) {
          const given = await runBlock(setup.join('\n'), cwd, bin, env);
          expect(given.code, `the givens of ${block.name}: ${given.out}`).toBe(0);
        }
        const r = await runBlock(block.text, cwd, bin, env);
        expect(r.code, r.out).toBe(0);
      } finally {
        await sandbox?.close();
      }
    },
    300_000,
  );
});
