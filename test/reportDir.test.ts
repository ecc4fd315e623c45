/**
 * One run per report folder, and Ctrl-C from the first second (issue 23, item 5), with the real
 * command in child processes: a second run into a folder in use is refused at once (exit 2, one
 * line naming the first run's process) while the first's report arrives whole; a lock left by a
 * process that no longer runs is taken over; a folder that cannot be made or written (/proc, /sys,
 * a file) is refused with one line before any request; Ctrl-C at start-up ends the run with exit
 * 130, the report folder as it was and no temporary files left.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { suiteVersion } from '../core/suiteVersion.ts';
import { loadFixture } from '../core/testSupport/resultsFixtures.ts';
import { LOCK_FILE } from '../reports/reportFolder.ts';
import { verifyReportDir, writeReports } from '../reports/writeReports.ts';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, ROOT, runCli } from './support/cli.ts';

interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): Spawned {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'conformance.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** What the run and its staging leave in a report folder besides the report: nothing. */
const runLeftovers = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.conformance-'));

/** A folder holding a whole earlier report (the failing fixture), and its digest. */
async function previousReport(): Promise<{ dir: string; digest: string }> {
  const dir = reportDir();
  await writeReports({ ...loadFixture('failing'), suite: suiteVersion() }, dir);
  return { dir, digest: readResults(dir).integrity?.digest as string };
}

const stderrLines = (text: string) => text.trim().split('\n').filter(Boolean);

describe('two runs into one folder', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let firstRequest: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    firstRequest = resolve;
  });
  // A target in front of the sandbox that holds every call until the test opens it: the first run
  // stays at discovery, holding its report folder, for as long as the test needs.
  const gated = createServer((req, res) => {
    forward(req).then(
      (answer) => res.writeHead(answer.status, answer.headers).end(answer.body),
      () => res.writeHead(502).end(),
    );
  });
  async function forward(
    req: IncomingMessage,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    firstRequest();
    await gate;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([k, v]) =>
        ['host', 'connection', 'content-length', 'transfer-encoding'].includes(k) || v === undefined
          ? []
          : [[k, Array.isArray(v) ? v.join(', ') : v]],
      ),
    );
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const answer = await fetch(`${sandbox.url}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? new Uint8Array(Buffer.concat(chunks)) : undefined,
      redirect: 'manual',
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    return { status: answer.status, headers: out, body: Buffer.from(await answer.arrayBuffer()) };
  }
  let target = '';
  let first: Spawned | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({});
    await new Promise<void>((resolve) => gated.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(gated.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    first?.child.kill('SIGKILL');
    open();
    gated.closeAllConnections();
    gated.close();
    await sandbox.close();
  });

  test('the second exits 2 at once naming the first; the folder keeps the previous report, then holds the first whole', async () => {
    const { dir, digest: before } = await previousReport();
    first = spawnCli([
      'run',
      '--target',
      target,
      '--only',
      'lookup-*,list-insurers',
      '--runs',
      '2',
      '--report-dir',
      dir,
    ]);
    let firstDone = false;
    void first.exited.then(() => {
      firstDone = true;
    });
    // The first run has claimed the folder and waits at discovery.
    await Promise.race([reached, first.exited]);
    expect(firstDone, first.stderr()).toBe(false);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);

    const second = await runCli(['start', '--only', 'lookup-*', '--runs', '1', '--report-dir', dir]);
    expect(second.code, second.stderr).toBe(2);
    expect(stderrLines(second.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^conformance: --report-dir .* is in use by another run \\(process ${first.child.pid}, started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)`,
        ),
      ),
    ]);
    expect(second.stdout).toBe('');
    // Refused while the first still held the folder (it cannot go on before the gate opens).
    expect(firstDone).toBe(false);
    // Meanwhile the folder holds the previous run, whole.
    const during = await verifyReportDir(dir);
    expect(during.intact).toBe(true);
    expect(readResults(dir).integrity?.digest).toBe(before);

    open();
    const { code } = await first.exited;
    expect(code, first.stdout() + first.stderr()).toBe(0);
    const results = readResults(dir);
    expect(results.verdict).toBe('conformant');
    expect(results.integrity?.digest).not.toBe(before);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(/data-verdict="([a-z-]+)"/.exec(html)?.[1]).toBe(results.verdict);
    const after = await verifyReportDir(dir);
    expect(after.intact, JSON.stringify(after.files)).toBe(true);
    // The Allure results are the first run's alone (each names the run's seed in its environment).
    expect(readdirSync(join(dir, 'allure-results')).length).toBeGreaterThan(0);
    expect(runLeftovers(dir)).toEqual([]);
  }, 240_000);
});

describe('a lock left by a process that no longer runs', () => {
  test('is taken over, with what that process left in the folder; other files stay', async () => {
    const { dir, digest: before } = await previousReport();
    const ended = spawnSync(process.execPath, ['-e', '']);
    const dead = ended.pid as number;
    writeFileSync(
      join(dir, LOCK_FILE),
      `${JSON.stringify({ pid: dead, host: hostname(), startedAt: '2020-01-01T00:00:00.000Z' })}\n`,
    );
    mkdirSync(join(dir, `.conformance-staging-${dead}-abc123`));
    writeFileSync(join(dir, `.conformance-staging-${dead}-abc123`, 'results.json'), '{}');
    writeFileSync(join(dir, 'notes.txt'), 'kept');
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
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^Verdict: CONFORMANT/m);
    expect(readResults(dir).integrity?.digest).not.toBe(before);
    expect((await verifyReportDir(dir)).intact).toBe(true);
    expect(runLeftovers(dir)).toEqual([]);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('kept');
  }, 240_000);
});

describe('a report folder that cannot be used is refused before any request', () => {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    res.statusCode = 404;
    res.end();
  });
  let target = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
  });

  const file = join(ROOT, 'package.json');
  const cases: [string, string, RegExp][] = [
    ['/proc/x', '/proc/x', /^conformance: --report-dir \/proc\/x cannot be made: .*\(ENOENT\)$/],
    ['/sys/x', '/sys/x', /^conformance: --report-dir \/sys\/x cannot be made: .*\((EPERM|EACCES|ENOENT)\)$/],
    [
      '/sys/kernel, a folder nobody may write into',
      '/sys/kernel',
      /^conformance: --report-dir \/sys\/kernel cannot be written: .*\((EACCES|EPERM)\)$/,
    ],
    ['a file', file, /^conformance: --report-dir .*package\.json is a file, not a folder$/],
    ['a path under a file', join(file, 'x'), /^conformance: --report-dir .*package\.json\/x lies under a file/],
  ];
  test.concurrent.each(cases.filter(([, dir]) => existsSync(dir.replace(/\/x$/, ''))))(
    '%s: exit 2, one line, no stack trace, nothing sent',
    async (_name, dir, message) => {
      const { code, stdout, stderr } = await runCli(['run', '--target', target, '--report-dir', dir], {
        timeoutMs: 60_000,
      });
      expect(code, stderr).toBe(2);
      expect(stderrLines(stderr).filter((l) => !l.startsWith('Usage:'))).toEqual([expect.stringMatching(message)]);
      expect(stdout).toBe('');
      expect(requests).toBe(0);
    },
    90_000,
  );
});

describe('Ctrl-C from the first second', () => {
  test('~300 ms after the start: the command ends at once, as interrupted, and writes nothing', async () => {
    const dir = join(reportDir(), 'report');
    const run = spawnCli(['start', '--report-dir', dir]);
    setTimeout(() => run.child.kill('SIGINT'), 300);
    const { code, signal } = await run.exited;
    // 130 from the entry module's first line (bin/conformance.mjs), then from the command's own
    // handling; only a signal before Node has run a line of ours ends the process by the signal.
    expect(code === 130 || signal === 'SIGINT', `exit ${code} ${signal}\n${run.stderr()}`).toBe(true);
    expect(run.stdout()).not.toMatch(/^Verdict:/m);
    expect(run.stderr()).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'results.json'))).toBe(false);
  }, 120_000);

  test('at start-up, before any operation is judged: exit 130, the previous report kept, no temporary files', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'conformance-early-sigint-'));
    const { dir, digest: before } = await previousReport();
    const run = spawnCli(['start', '--report-dir', dir], { TMPDIR: tmp });
    const listening = new Promise<void>((resolve) =>
      run.child.stdout?.on('data', () => {
        if (run.stdout().includes('sandbox listening on')) resolve();
      }),
    );
    await Promise.race([listening, run.exited]);
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code, run.stdout() + run.stderr()).toBe(130);
    expect(run.stderr()).toMatch(/^conformance: interrupted/m);
    expect(run.stderr()).not.toMatch(/\n\s+at /);
    expect(run.stderr()).not.toMatch(/^(ok|FAIL|\?\?) /m);
    expect(run.stdout()).not.toMatch(/^Verdict:/m);
    expect(readResults(dir).integrity?.digest).toBe(before);
    expect((await verifyReportDir(dir)).intact).toBe(true);
    expect(runLeftovers(dir)).toEqual([]);
    // tsx keeps its compile cache in the temporary folder by design; the run leaves nothing of its own.
    expect(readdirSync(tmp).filter((n) => !n.startsWith('tsx-'))).toEqual([]);
  }, 120_000);
});
