/**
 * The command contract: usage errors, bad config, unreachable and hostile targets give a clear
 * one-line error and a distinct exit code, never a stack trace or a hang.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FAULTS } from '../server/faults/catalog.ts';
import { VARIANTS } from '../server/variants/catalog.ts';
import { readResults, reportDir, ROOT, runCli } from './support/cli.ts';

const oneLine = (s: string) =>
  s
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('Usage') && !l.includes('(conformance help)'));

describe('conformance command', () => {
  test('faults lists every named fault, one per line', async () => {
    const { code, stdout } = await runCli(['faults']);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual(FAULTS.map((f) => f.name));
  });

  test('variants lists every named variant; --describe adds what allows each', async () => {
    const { code, stdout } = await runCli(['variants']);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual(VARIANTS.map((v) => v.name));
    const described = await runCli(['variants', '--describe']);
    expect(
      described.stdout
        .trim()
        .split('\n')
        .every((l) => /^[a-z0-9-]+\t.+ Allowed by: .+\.$/.test(l)),
    ).toBe(true);
  });

  test.each([
    [['run'], /needs --target/],
    [['run', '--target', 'http://127.0.0.1:9', '--seed', 'abc'], /--seed must be an integer/],
    [['run', '--target', 'http://127.0.0.1:9', '--only', 'no-such-op'], /matches no operation/],
    [['run', '--target', 'ftp://x'], /must be an http or https URL/],
    [['run', '--target', 'http://127.0.0.1:9', '--config', '/no/such/file.json'], /Cannot read config file/],
    [['frobnicate'], /Unknown command/],
    [['run', '--target', 'http://127.0.0.1:9', '--bogus'], /Unknown option/],
    [['serve', '--fault', 'no-such-fault'], /Unknown fault/],
    [['serve', '--variant', 'no-such-variant'], /Unknown variant no-such-variant/],
    [['start', '--variant', 'no-such-variant'], /Unknown variant no-such-variant/],
    [
      ['run', '--target', 'http://127.0.0.1:9', '--min-coverage', '120'],
      /--min-coverage must be an integer from 0 to 100/,
    ],
  ])('%j exits 2 with a one-line reason', async (args, message) => {
    const { code, stderr, stdout } = await runCli(args as string[]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(oneLine(stderr)).toHaveLength(1);
    expect(stderr + stdout).not.toMatch(/\n\s+at /);
  });

  test('an invalid config file is named with the place of the problem', async () => {
    const file = join(reportDir(), 'bad.json');
    writeFileSync(file, JSON.stringify({ auth: { type: 'bearer' }, features: ['Nope'] }));
    const { code, stderr } = await runCli([
      'run',
      '--target',
      'http://127.0.0.1:9',
      '--config',
      file,
      '--report-dir',
      reportDir(),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Config file .*bad\.json is invalid at \//);
  });

  test('a config naming an unset secret variable is refused', async () => {
    const file = join(reportDir(), 'c.json');
    writeFileSync(
      file,
      JSON.stringify({ auth: { type: 'bearer', tokenEnv: 'CONFORMANCE_TEST_UNSET_TOKEN' }, siteId: 'SITE001' }),
    );
    const { code, stderr } = await runCli([
      'run',
      '--target',
      'http://127.0.0.1:9',
      '--config',
      file,
      '--report-dir',
      reportDir(),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/CONFORMANCE_TEST_UNSET_TOKEN is not set/);
  });

  test('an unreachable target exits 2 with one line', async () => {
    const { code, stderr } = await runCli(['run', '--target', 'http://127.0.0.1:9', '--report-dir', reportDir()]);
    expect(code).toBe(2);
    expect(oneLine(stderr)).toEqual([
      expect.stringMatching(/Target unreachable: Connection refused by 127\.0\.0\.1:9/),
    ]);
  });

  test('a target that never answers exits 2 after the configured time-out', async () => {
    const server = createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const file = join(reportDir(), 'slow.json');
    writeFileSync(
      file,
      JSON.stringify({
        auth: { type: 'bearer', tokenEnv: 'CONFORMANCE_TOKEN' },
        siteId: 'SITE001',
        http: { timeoutMs: 500 },
      }),
    );
    const { code, stderr } = await runCli(['run', '--target', url, '--config', file, '--report-dir', reportDir()], {
      env: { CONFORMANCE_TOKEN: 'tok-123456789' },
    });
    server.closeAllConnections();
    server.close();
    expect(code).toBe(2);
    expect(stderr).toMatch(/No complete response from .* within 500 ms/);
  });

  test('a hostile target (5xx, non-JSON, huge and hanging answers) is judged, not crashed on', async () => {
    const server = createServer((req, res) => {
      const url = req.url ?? '';
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (url.endsWith('/.well-known/api-configuration')) {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            find_member_endpoint: `${base}/fm`,
            search_authorisation_endpoint: `${base}/hang`,
            search_remittance_summary_endpoint: `${base}/huge`,
            search_remittance_detail_endpoint: `${base}/html`,
          }),
        );
      } else if (url.startsWith('/hang')) {
        /* never answers */
      } else if (url.startsWith('/huge')) {
        res.setHeader('content-type', 'application/json');
        res.end(`{"x":"${'a'.repeat(3 * 1024 * 1024)}"}`);
      } else if (url.startsWith('/html')) {
        res.setHeader('content-type', 'application/json');
        res.end('<html><script>alert(1)</script></html>');
      } else {
        res.statusCode = 500;
        res.end('Internal Server Error');
      }
    }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const file = join(reportDir(), 'hostile.json');
    writeFileSync(
      file,
      JSON.stringify({
        auth: { type: 'bearer', tokenEnv: 'CONFORMANCE_TOKEN' },
        siteId: 'SITE001',
        http: { timeoutMs: 600, maxResponseBytes: 1048576 },
        fixtures: {
          findMemberV2: {
            single: { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' },
          },
        },
      }),
    );
    const dir = reportDir();
    const { code, stderr } = await runCli(
      [
        'run',
        '--target',
        url,
        '--config',
        file,
        '--only',
        'find-member-v2,search-*',
        '--report-dir',
        dir,
        '--runs',
        '3',
      ],
      {
        env: { CONFORMANCE_TOKEN: 'tok-123456789' },
        timeoutMs: 240000,
      },
    );
    server.closeAllConnections();
    server.close();
    expect(stderr).not.toMatch(/internal error/);
    expect(code).toBe(1);
    const results = readResults(dir);
    expect(results.verdict).toBe('not-conformant');
    const messages = results.results.map((r) => r.message).join('\n');
    expect(messages).toMatch(/received HTTP 500/);
    expect(messages).toMatch(/within 600 ms|exceeded the cap/);
  }, 250000);

  test('serve prints its address first and answers discovery', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'conformance.mjs'), 'serve'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const first = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.once('exit', () => reject(new Error(`serve exited: ${out}`)));
    });
    expect(first).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${first.replace('listening on ', '')}/.well-known/api-configuration`);
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });
});
