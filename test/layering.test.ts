/**
 * The layering rules of `.dependency-cruiser.cjs` (issue 34 item 4), proved on a small tree of
 * their own: each import that runs back up a floor is reported under its rule, and the imports the
 * layering allows are not. `npm test`'s lint runs the same rules over the project itself.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from './support/cli.ts';

/** file → the files it imports (relative to the tree's root). */
const TREE: Record<string, string[]> = {
  'cli/start.ts': ['app/engine.ts', 'service/server.ts', 'pacts/verify.ts'],
  'bin/cli.ts': ['cli/start.ts'],
  'test/start.test.ts': ['cli/start.ts'],
  'app/engine.test.ts': ['cli/start.ts'],
  'app/engine.ts': ['core/http.ts'],
  'app/backwards.ts': ['cli/start.ts', 'pacts/verify.ts', 'service/server.ts'],
  'scripts/tool.ts': ['cli/start.ts'],
  'service/server.ts': ['app/engine.ts', 'cli/start.ts'],
  'pacts/verify.ts': ['app/engine.ts'],
  'certify/client.ts': ['service/server.ts'],
  'core/http.ts': [],
};

let dir: string;
let violations: { from: string; to: string; rule: string }[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'layering-'));
  for (const [file, imports] of Object.entries(TREE)) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    const lines = imports.map((to, i) => {
      const rel = `${'../'.repeat(file.split('/').length - 1)}${to}`;
      return `import * as m${i} from '${rel}';\nexport const u${i} = m${i};`;
    });
    writeFileSync(join(dir, file), `${lines.join('\n')}\nexport const here = 1;\n`);
  }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }),
  );
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
      ...new Set(Object.keys(TREE).map((f) => f.split('/')[0] as string)),
      '--config',
      join(ROOT, '.dependency-cruiser.cjs'),
      '--output-type',
      'json',
    ],
    { cwd: dir, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const report = JSON.parse(run.stdout) as {
    summary: { violations: { from: string; to: string; rule: { name: string } }[] };
  };
  violations = report.summary.violations.map((v) => ({ from: v.from, to: v.to, rule: v.rule.name }));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const broken = (rule: string) =>
  violations
    .filter((v) => v.rule === rule)
    .map((v) => `${v.from} -> ${v.to}`)
    .sort();

describe('the layering rules (.dependency-cruiser.cjs)', () => {
  test('only bin/ and the tests import the command layer', () => {
    expect(broken('cli-is-the-top-floor')).toEqual([
      'app/backwards.ts -> cli/start.ts',
      'scripts/tool.ts -> cli/start.ts',
      'service/server.ts -> cli/start.ts',
    ]);
  });

  test('the run engine never imports what composes it', () => {
    expect(broken('the-run-engine-is-below-its-users')).toEqual([
      'app/backwards.ts -> cli/start.ts',
      'app/backwards.ts -> pacts/verify.ts',
      'app/backwards.ts -> service/server.ts',
    ]);
  });

  test('pacts/ and certify/ never import the service; nothing but the command layer does', () => {
    expect(broken('pacts-and-certify-below-the-service')).toEqual(['certify/client.ts -> service/server.ts']);
    expect(broken('nothing-imports-the-service')).toEqual([
      'app/backwards.ts -> service/server.ts',
      'certify/client.ts -> service/server.ts',
    ]);
  });

  test('the imports the layering allows are not reported', () => {
    const allowed = ['bin/cli.ts', 'test/start.test.ts', 'app/engine.test.ts', 'cli/start.ts', 'pacts/verify.ts'];
    expect(violations.filter((v) => allowed.includes(v.from) && v.rule !== 'no-cycles')).toEqual([]);
  });
});
