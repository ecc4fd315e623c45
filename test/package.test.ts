/**
 * The installable package (issue 23): the project is packed as `npm pack` packs it (its `prepack`
 * compiles dist/), the tarball is installed into an empty prefix as `npm install -g` installs it,
 * by the README's own install block (which also prints the version and runs Document 2 against
 * the package's own sandbox), and the installed `conformance` runs from an empty folder with no
 * clone, no TypeScript and no tsx: `--version`, `pact verify` against a sandbox it serves, and
 * `openapi`. One pack and one install per run (about a minute and a half of the
 * file's time). Also the first step of `npm test` and `npm run test:full`, scripts/preflight.mjs: Chromium is there, is
 * installed where nobody's password is needed, or the command stops at once with the command to run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from './support/cli.ts';
import { readmeBlock } from './support/readme.ts';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const work = mkdtempSync(join(tmpdir(), 'conformance-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const prefix = join(work, 'prefix');
/** Where a user with no clone stands: an empty folder outside the project. */
const empty = join(work, 'empty');
mkdirSync(empty);
const installed = join(prefix, 'lib', 'node_modules', 'api-conformance-suite');
/** The child's environment: the installed command first on PATH, no npm script variables, no module path. */
const env: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'NODE_PATH')),
  PATH: [join(prefix, 'bin'), process.env.PATH].join(delimiter),
  FORCE_COLOR: '0',
};

function run(
  command: string,
  args: string[],
  cwd: string,
  { timeoutMs = 300_000, extraEnv = {} }: { timeoutMs?: number; extraEnv?: NodeJS.ProcessEnv } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const conformance = (args: string[]) => run('conformance', args, empty);
/** Where the README's install block runs: a folder holding the packed tarball alone. */
const readmeFolder = join(work, 'readme');
mkdirSync(readmeFolder);
let readme: Ran = { code: null, stdout: '', stderr: '' };

/** `conformance serve` of the installed package, and its address once it listens. */
function serve(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('conformance', ['serve'], { cwd: empty, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /^listening on (\S+)$/m.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`conformance serve ended (exit ${code}): ${out}`)));
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path).map((f) => join(name, f)) : [name];
  });
}

describe('the packed and installed package', () => {
  let sandbox: ChildProcess | undefined;

  beforeAll(async () => {
    const packed = await run('npm', ['pack', '--pack-destination', work, '--json'], ROOT, { timeoutMs: 600_000 });
    if (packed.code !== 0) throw new Error(`npm pack failed (exit ${packed.code}): ${packed.stderr.slice(-2000)}`);
    const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[\n'))) as { filename: string }[];
    // The README's own install block (readme-test: install-package), run as written in a folder
    // holding only the tarball. npm's settings stand in for the machine's: the prefix of this test.
    // Install scripts run as they do for a user: no dependency of the package compiles anything
    // (the embedded database is SQLite compiled to WebAssembly; issue 33, item 7).
    renameSync(join(work, filename), join(readmeFolder, filename));
    readme = await run('bash', ['-e', '-c', readmeBlock('install-package').text], readmeFolder, {
      timeoutMs: 900_000,
      extraEnv: {
        npm_config_prefix: prefix,
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
      },
    });
    if (readme.code !== 0)
      throw new Error(`the README's install block failed (exit ${readme.code}): ${readme.stderr.slice(-2000)}`);
  }, 1_200_000);

  afterAll(() => {
    sandbox?.kill();
  });

  test('holds compiled JavaScript and its data, no TypeScript, and installs without tsx', () => {
    const files = filesUnder(installed).filter((f) => !f.startsWith('node_modules'));
    expect(files).toContain('bin/conformance.mjs');
    expect(files).toContain(join('dist', 'bin', 'cli.js'));
    for (const data of [
      'schemas/accounts-error.schema.json',
      'spec/requirements.csv',
      'spec/decisions.md',
      'spec/evidence/power.json',
      'core/config.schema.json',
      'server/demo-config.json',
      'reports/html/assets/report.js',
    ]) {
      expect(files, data).toContain(join('dist', data));
    }
    expect(files.filter((f) => f.endsWith('.suite.js')).length).toBeGreaterThan(10);
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
    expect(existsSync(join(installed, 'node_modules', 'tsx'))).toBe(false);
    // Nothing of the install is built on the machine: no package to compile (binding.gyp), no build/ of one.
    const dependencies = filesUnder(join(installed, 'node_modules'));
    expect(dependencies.filter((f) => f.endsWith('binding.gyp') || /(^|\/)build\/.*\.node$/.test(f))).toEqual([]);
    expect(existsSync(join(installed, 'node_modules', 'better-sqlite3'))).toBe(false);
    expect(existsSync(join(installed, 'node_modules', 'node-sqlite3-wasm', 'dist', 'node-sqlite3-wasm.wasm'))).toBe(
      true,
    );
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.private).toBeUndefined();
    expect(pkg.bin).toEqual({ conformance: 'bin/conformance.mjs' });
  });

  test('the README’s install block runs as written: it installs, prints the version and judges Document 2 conformant', () => {
    expect(readme.code).toBe(0);
    expect(readme.stdout).toMatch(/^conformance \d+\.\d+\.\d+ \(api-conformance-suite, node v\d+/m);
    expect(readme.stdout).toMatch(/^Verdict: CONFORMANT/m);
    // The run's report is in the folder it ran from, and nothing else of it.
    expect(readdirSync(readmeFolder).sort()).toEqual(['api-conformance-suite-0.1.0.tgz', 'conformance-report']);
    expect(existsSync(join(readmeFolder, 'conformance-report', 'report.html'))).toBe(true);
  });

  test('conformance --version from an empty folder', async () => {
    const r = await conformance(['--version']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^conformance \d+\.\d+\.\d+ \(api-conformance-suite, node v\d+/);
  });

  test('conformance pact verify against the sandbox the package serves: exit 0', async () => {
    const served = await serve();
    sandbox = served.child;
    const pacts = join(work, 'pacts');
    const generated = await conformance(['pact', 'generate', '--out', pacts]);
    expect(generated.code).toBe(0);
    const r = await conformance([
      'pact',
      'verify',
      '--target',
      served.url,
      '--pact',
      join(pacts, 'reference-consumer-membership.json'),
      '--report-dir',
      join(work, 'verify'),
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Verdict: CONFORMANT/m);
  }, 300_000);

  test('conformance service from an empty folder: the embedded database opens and the sign-in page is served', async () => {
    const child = spawn('conformance', ['service', '--port', '0'], {
      cwd: empty,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
          if (found) resolve(found);
        });
        child.on('exit', (code) => reject(new Error(`conformance service ended (exit ${code}): ${out}`)));
      });
      expect(out).toContain(`Database: embedded at ${join(empty, 'conformance-service-data', 'service.db')}`);
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<h1>Sign in</h1>');
      // The data folder is the service's while it runs, and given back when it stops.
      expect(existsSync(join(empty, 'conformance-service-data', 'service.lock'))).toBe(true);
    } finally {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    expect(existsSync(join(empty, 'conformance-service-data', 'service.lock'))).toBe(false);
  }, 120_000);

  test('conformance openapi writes the OpenAPI 3.1 documents', async () => {
    const out = join(work, 'openapi');
    const r = await conformance(['openapi', '--out', out]);
    expect(r.code).toBe(0);
    const family = JSON.parse(readFileSync(join(out, 'openapi.json'), 'utf8')) as { openapi: string };
    expect(family.openapi).toMatch(/^3\.1\./);
  });
});

/** scripts/preflight.mjs, loaded as `npm test` runs it (a plain ES module). */
interface Found {
  chromium: string;
  custom: boolean;
  present: boolean;
  debian?: boolean;
  aptGet?: boolean;
  root?: boolean;
  sudo?: boolean;
}
type Plan = { action: 'ok' } | { action: 'install'; sudo: boolean } | { action: 'stop'; line: string };
const preflight = (): Promise<{ plan: (found: Found) => Plan; INSTALL_COMMAND: string; EXIT_NO_CHROMIUM: number }> =>
  import(pathToFileURL(join(ROOT, 'scripts', 'preflight.mjs')).href);

describe('npm test and npm run test:full check for Chromium first (scripts/preflight.mjs)', () => {
  const missing = { chromium: '/usr/bin/chromium', custom: false, present: false, debian: true, aptGet: true };

  test('present: nothing to do; missing: installed as root or with sudo that asks no password, on Debian', async () => {
    const { plan } = await preflight();
    expect(plan({ chromium: '/usr/bin/chromium', custom: false, present: true })).toEqual({ action: 'ok' });
    expect(plan({ ...missing, root: true, sudo: false })).toEqual({ action: 'install', sudo: false });
    expect(plan({ ...missing, root: false, sudo: true })).toEqual({ action: 'install', sudo: true });
  });

  test('otherwise it stops with the one command to run', async () => {
    const { plan, INSTALL_COMMAND } = await preflight();
    const stops = [
      plan({ ...missing, root: false, sudo: false }),
      plan({ ...missing, debian: false, root: true, sudo: false }),
      plan({ ...missing, aptGet: false, root: true, sudo: false }),
      // A browser named by CONFORMANCE_CHROMIUM is the user's: never replaced by an install.
      plan({ ...missing, chromium: '/opt/chrome', custom: true, root: true, sudo: false }),
    ];
    for (const stop of stops) {
      expect(stop.action).toBe('stop');
      expect(stop.action === 'stop' && stop.line).toContain(INSTALL_COMMAND);
    }
  });

  test('run as npm test runs it: one line on stderr and its own exit code when Chromium is missing', async () => {
    const { EXIT_NO_CHROMIUM } = await preflight();
    const script = join(ROOT, 'scripts', 'preflight.mjs');
    // npm names the script that runs it in npm_lifecycle_event; its line names that command.
    for (const [event, command] of [
      ['test', 'npm test'],
      ['test:full', 'npm run test:full'],
    ] as const) {
      const gone = await run(process.execPath, [script], empty, {
        timeoutMs: 30_000,
        extraEnv: { CONFORMANCE_CHROMIUM: join(work, 'no-chromium'), npm_lifecycle_event: event },
      });
      expect(EXIT_NO_CHROMIUM).not.toBe(1);
      expect(gone.code).toBe(EXIT_NO_CHROMIUM);
      expect(gone.stdout).toBe('');
      expect(gone.stderr.trim().split('\n')).toEqual([
        `${command}: CONFORMANCE_CHROMIUM names ${join(work, 'no-chromium')}, which is not an executable; point it at Chromium, or unset it and run: sudo apt-get update && sudo apt-get install -y chromium`,
      ]);
    }
  });
});
