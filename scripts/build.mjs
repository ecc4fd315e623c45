#!/usr/bin/env node
// The package's build (`npm run build`, run by `prepack`): compiles the TypeScript the `conformance`
// command runs into dist/, laid out as the sources are (dist/core/config.js beside dist/schemas/),
// and copies beside it the data the code reads relative to itself (schemas, spec tables and
// documents, evidence, the demo config, the report's assets). Every `new URL('../x', import.meta.url)`
// of the sources therefore finds its file in both layouts. The installed package runs dist/ alone:
// no TypeScript is compiled at run time.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

/** Data read at run time, relative to the module that reads it (copied to the same place under dist/). */
export const DATA = [
  'schemas',
  'spec/requirements.csv',
  'spec/decisions.md',
  'spec/documents',
  'spec/evidence',
  'core/config.schema.json',
  'server/demo-config.json',
  'reports/html/assets',
];

function fail(message) {
  process.stderr.write(`build: ${message}\n`);
  process.exit(1);
}

function jsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsFiles(path));
    else if (name.endsWith('.js')) out.push(path);
  }
  return out;
}

function build() {
  rmSync(DIST, { recursive: true, force: true });
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    // A fresh clone without its dependencies: say what to do, not Node's resolver trace.
    fail('TypeScript is not installed here: run `npm ci` in the clone first, then `npm pack` (or `npm run build`)');
  }
  const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (compiled.status !== 0) fail(`tsc -p tsconfig.build.json failed (exit ${compiled.status})`);

  // A compiled module that still names a TypeScript file of ours by path would look for a file the
  // package does not hold.
  const stale = jsFiles(DIST).filter((f) =>
    /(?:join|resolve|fork|URL)\([^)\n]*\.ts['"`]/.test(readFileSync(f, 'utf8')),
  );
  if (stale.length > 0) fail(`compiled modules name .ts files: ${stale.map((f) => relative(ROOT, f)).join(', ')}`);

  for (const item of DATA) {
    const from = join(ROOT, item);
    if (!existsSync(from)) fail(`${item} is missing`);
    mkdirSync(dirname(join(DIST, item)), { recursive: true });
    cpSync(from, join(DIST, item), { recursive: true });
  }
  // The modules read the suite's name and version from ../package.json, which under dist/ is this
  // one; it also keeps dist/*.js ES modules.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  writeFileSync(
    join(DIST, 'package.json'),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, type: 'module', private: true }, null, 2)}\n`,
  );
  process.stdout.write(`build: dist/ (${jsFiles(DIST).length} modules, ${DATA.length} data items)\n`);
}

build();
