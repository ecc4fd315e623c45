/**
 * The command's manners (issue 11): help for every subcommand, --version, the operation list,
 * options checked before any request, a starter config, progress and quiet output, whole-command
 * replay hints, and Ctrl-C leaving a report marked interrupted and no temporary files. Every case
 * runs the real command in a child process.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operations } from '../spec/operations.ts';
import { readResults, reportDir, ROOT, runCli, runInProcess } from './support/cli.ts';

const inProcess = runInProcess;

const COMMANDS = [
  'service',
  'keys',
  'diff',
  'run',
  'start',
  'serve',
  'merge',
  'report',
  'verify-report',
  'operations',
  'faults',
  'variants',
  'init',
  'openapi',
  'pact',
  'certify-client',
  'compare',
  'help',
];

describe.concurrent('help and version', () => {
  test('the overview names every command with what it does', async () => {
    const { code, stdout } = await runCli(['help']);
    expect(code).toBe(0);
    for (const c of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${c} +\\S`, 'm'));
  });

  test.each(COMMANDS.map((c) => [c]))('%s --help prints its usage and options, exit 0', async (command) => {
    const { code, stdout, stderr } = await inProcess([command, '--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    // Run from a clone, a printed command starts with `npx conformance` (core/commandName.ts).
    expect(stdout).toMatch(new RegExp(`^Usage:\n  npx conformance ${command}`));
    const help = await inProcess(['help', command]);
    expect(help.stdout).toBe(stdout);
  });

  test('the binary prints the same help', async () => {
    expect((await runCli(['run', '--help'], { spawn: true })).stdout).toBe((await inProcess(['run', '--help'])).stdout);
  });

  test('--version prints the suite version from package.json', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const { code, stdout } = await runCli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(new RegExp(`^conformance ${pkg.version.replaceAll('.', '\\.')} `));
  });
});

describe.concurrent('conformance operations', () => {
  test('lists every operation with its document, section and method', async () => {
    const { code, stdout } = await inProcess(['operations']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(operations.map((o) => o.id));
    const fm1 = lines.find((l) => l.startsWith('find-member-v1 '));
    expect(fm1).toMatch(/ D1 +§\S+ +\w+ .*deprecated/);
  });

  test('--only D2 keeps document 2; --json gives the same ids as data', async () => {
    const { stdout } = await inProcess(['operations', '--only', 'D2', '--json']);
    const listed = JSON.parse(stdout) as { id: string; document: string; flags: string[] }[];
    expect(listed.map((o) => o.id)).toEqual(operations.filter((o) => o.document === 'D2').map((o) => o.id));
    expect(listed.every((o) => o.document === 'D2' && Array.isArray(o.flags))).toBe(true);
  });
});

describe.concurrent('every option is checked before any request is sent', () => {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    res.statusCode = 404;
    res.end();
  });
  let target = '';
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
  });

  const aFile = join(ROOT, 'package.json');
  test.each([
    [['--runs', '-3'], /--runs must be an integer from 1 to 10000, received "-3"/],
    [['--runs', '0'], /--runs must be an integer/],
    [['--path', 'zz', '--seed', '1'], /--path must be a replay path/],
    [['--path', '0:1'], /give --seed too/],
    [['--report-dir', aFile], /--report-dir .* is a file, not a folder/],
    [['--shard', '0/2'], /--shard index must be from 1 to 2/],
    [['--shard', '1/999'], /--shard count must be from 1 to \d+/],
    [['--shard', 'half'], /--shard must be I\/N/],
    [['--evidence', 'some'], /--evidence must be masked or full/],
    [['--only', 'D9'], /matches no operation/],
  ])('run %j exits 2 with one line and sends nothing', async (args, message) => {
    const { code, stderr } = await inProcess(['run', '--target', target, ...(args as string[])]);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
    // No case of this block sends anything, so the count stays 0 whatever runs beside it.
    expect(requests).toBe(0);
  });

  test('merge without folders, or of folders that are not shards, exits 2 with one line', async () => {
    const none = await inProcess(['merge']);
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n')[0]).toMatch(/merge needs the report folders/);
    const empty = await inProcess(['merge', reportDir()]);
    expect(empty.code).toBe(2);
    expect(empty.stderr.split('\n')[0]).toMatch(/Cannot read results file/);
  });
});

describe('conformance init', () => {
  test('writes a starter config naming its $schema, which the run then loads; never overwrites', async () => {
    const dir = reportDir();
    const file = join(dir, 'conformance.config.json');
    const first = await runCli(['init', '--out', file]);
    expect(first.code).toBe(0);
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(typeof config.$schema).toBe('string');
    const schema = JSON.parse(readFileSync(join(dir, config.$schema as string), 'utf8')) as { $id: string };
    expect(schema.$id).toMatch(/config\.schema\.json$/);
    // The config is valid: the run gets past loading it and stops at the unreachable target.
    const run = await runCli(['run', '--target', 'http://127.0.0.1:9', '--config', file, '--report-dir', dir], {
      // Every variable the starter names, set to a value (the demo config's own are public).
      env: Object.fromEntries(
        [...readFileSync(file, 'utf8').matchAll(/"\w+Env": "([A-Z0-9_]+)"/g)].map((m) => [m[1], `value-of-${m[1]}`]),
      ),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Target unreachable/);
    const again = await runCli(['init', '--out', file]);
    expect(again.code).toBe(2);
    expect(again.stderr.split('\n')[0]).toMatch(/exists; give --force/);
  }, 240_000);
});

describe.concurrent('output of a run', () => {
  test('off a terminal: one progress line per finished operation on stderr, no cursor codes', async () => {
    const dir = reportDir();
    const { code, stdout, stderr } = await runCli([
      'start',
      '--only',
      'lookup-*,list-insurers',
      '--runs',
      '1',
      '--report-dir',
      dir,
    ]);
    expect(code).toBe(0);
    expect(stderr).not.toContain('\u001b');
    expect(stdout).not.toContain('\u001b');
    const progress = stderr.split('\n').filter((l) => /^(ok|FAIL|\?\?) /.test(l));
    expect(progress.map((l) => l.split(/\s+/)[1]).sort()).toEqual(
      ['list-insurers', 'lookup-locations', 'lookup-practitioners'].sort(),
    );
    expect(progress.every((l) => /\d+ pass, \d+ fail/.test(l))).toBe(true);
    // The summary shows the coverage of every operation.
    expect(stdout).toMatch(/^list-insurers +D2 .* \d+% \(\d+\/\d+\)/m);
  }, 240_000);

  test('--quiet prints the verdict and the report only', async () => {
    const dir = reportDir();
    const { code, stdout, stderr } = await runCli([
      'start',
      '--only',
      'lookup-*,list-insurers',
      '--runs',
      '1',
      '--quiet',
      '--report-dir',
      dir,
    ]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^Verdict: CONFORMANT/),
      expect.stringMatching(/^Report: .*report\.html$/),
    ]);
  }, 240_000);

  test('a failure prints a replay hint that is a whole command, and running it judges that case again', async () => {
    const dir = reportDir();
    const first = await runCli([
      'start',
      '--fault',
      'radius-leak',
      '--only',
      'search-register-practitioner-roles',
      '--runs',
      '3',
      '--seed',
      '7',
      '--report-dir',
      dir,
    ]);
    expect(first.code).toBe(1);
    const hint = /replay: (npx conformance .*)$/m.exec(first.stdout)?.[1];
    expect(hint, first.stdout).toMatch(
      /^npx conformance start --fault radius-leak --runs 3 --seed 7 (--path \S+ )?--only search-register-practitioner-roles$/,
    );
    const words = (hint as string).split(' ').slice(2);
    const again = await runCli([...words, '--report-dir', reportDir()]);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`replay: ${hint}`);
  }, 240_000);
});

describe('Ctrl-C', () => {
  test('stops the run, writes a report marked interrupted, exits 130 and leaves no temporary files', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'conformance-sigint-'));
    const dir = reportDir();
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'conformance.mjs'), 'start', '--runs', '2', '--report-dir', dir],
      { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const judging = new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/^ok /m.test(stderr)) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await judging;
    child.kill('SIGINT');
    const code = await exited;
    expect(code, `${stdout}\n${stderr}`).toBe(130);
    expect(stderr).toMatch(/interrupted/);
    expect(stderr).not.toMatch(/\n\s+at /);
    const results = readResults(dir);
    expect(results.interrupted?.notRun.length).toBeGreaterThan(0);
    expect(results.verdict).not.toBe('conformant');
    expect(stdout).toMatch(/^Inconclusive: the run was interrupted/m);
    // tsx keeps its compile cache in the temporary folder by design; the run leaves nothing of its own.
    expect(readdirSync(tmp).filter((n) => !n.startsWith('tsx-'))).toEqual([]);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  }, 240_000);
});

describe('a file is written only where asked', () => {
  test('init refuses a folder that does not exist, with one line', async () => {
    const file = join(reportDir(), 'no', 'such', 'c.json');
    const { code, stderr } = await runCli(['init', '--out', file]);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toMatch(/cannot write .*ENOENT/);
  });
});
