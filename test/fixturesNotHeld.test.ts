/**
 * Fixtures are not the server's fault (issue 22, item 6), each a real run against the sandbox:
 * - a config whose `fixtures.bills.billId` names a bill the sandbox does not hold: the step that
 *   needed it is a `fixture-held` skip naming the fixture, never a MUST failure; the run is
 *   inconclusive (exit 3) because the lost requirements bring coverage below the minimum;
 * - the same step against a target that answers 404 for a bill its own search has just returned
 *   still fails (the skip hides no fault);
 * - a wrong discovery path in the config is a config problem naming the key to check (exit 2),
 *   not a failure of the server.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResults } from '../core/results.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { type CliResult, readResults, reportDir } from './support/cli.ts';
import { sharedRunPool } from './support/sharedRunPool.ts';

const TIMEOUT = 120_000;
const DEMO = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as {
  services: Record<string, { discovery: string }>;
  fixtures: { bills: Record<string, string> };
};
const HELD_BILL = DEMO.fixtures.bills.billId;
const UNKNOWN_BILL = 'BILL-NOT-HELD-404';

/** A config file: the demo config with one change. */
function configWith(name: string, edit: (c: typeof DEMO) => void): string {
  const config = structuredClone(DEMO);
  edit(config);
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-config-')), `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/**
 * A target that is the sandbox except that it answers 404 MSG_ENTITY_NOT_FOUND for the bill the
 * demo config names (which its search still returns): a fault on a held record.
 */
async function startForgetfulTarget(sandbox: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://forgetful.invalid').pathname;
    if (req.method === 'GET' && new RegExp(`/claim/${HELD_BILL}/(true|false)$`).test(path)) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/fhir+json' });
      res.end(
        JSON.stringify({
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'not-found', details: { coding: [{ code: 'MSG_ENTITY_NOT_FOUND' }] } }],
        }),
      );
      return;
    }
    // The Host header stays the proxy's own, so that the discovery documents name the proxy.
    const upstream = forward(new URL(req.url ?? '/', sandbox), { method: req.method, headers: req.headers }, (a) => {
      res.writeHead(a.statusCode ?? 502, a.headers);
      a.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

type Run = CliResult & { results?: RunResults };

// The command's runs go to the run processes every self-test shares (test/support/runPool.ts):
// `conformance run`'s entry point with these arguments, its output and exit code as a child
// process would give them, without a Node start and the command's modules per run.
const pool = sharedRunPool();

let sandbox: RunningSandbox;
let forgetful: { url: string; server: Server };
let notHeld: Run;
let heldButMissing: Run;
let wrongDiscovery: Run;
let wrongDiscoveryUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  forgetful = await startForgetfulTarget(sandbox.url);
  const run = async (target: string, config: string, only: string, report = true): Promise<Run> => {
    const dir = reportDir();
    const out = await pool.command(
      [
        'run',
        '--target',
        target,
        '--config',
        config,
        '--only',
        only,
        '--report-dir',
        dir,
        '--seed',
        '22',
        '--runs',
        '2',
      ],
      { ...DEMO_ENVIRONMENT },
    );
    return { ...out, ...(report ? { results: readResults(dir) } : {}) };
  };
  const unknownBill = configWith('unknown-bill', (c) => {
    c.fixtures.bills.billId = UNKNOWN_BILL;
  });
  const wrongPath = configWith('wrong-discovery', (c) => {
    c.services.membership.discovery = '{target}/wrong/.well-known/api-configuration';
  });
  wrongDiscoveryUrl = `${sandbox.url}/wrong/.well-known/api-configuration`;
  [notHeld, heldButMissing, wrongDiscovery] = await Promise.all([
    run(sandbox.url, unknownBill, 'get-bill'),
    run(forgetful.url, DEMO_CONFIG_FILE, 'search-bills,get-bill'),
    run(sandbox.url, wrongPath, 'find-member-v2', false),
  ]);
}, TIMEOUT + 20_000);

afterAll(async () => {
  forgetful?.server.closeAllConnections();
  await new Promise((resolve) => forgetful?.server.close(resolve));
  await sandbox?.close();
});

describe('a bill id the target does not hold', () => {
  test('is a fixture-held skip naming fixtures.bills.billId, with the answer as evidence', () => {
    const skips = notHeld.results?.results.filter((r) => r.check === 'fixture-held') ?? [];
    expect(skips.length).toBeGreaterThan(0);
    for (const r of skips) {
      expect(r.status).toBe('skip');
      expect(r.operation).toBe('get-bill');
      expect(r.message).toMatch(/^fixture not held by the target: fixtures\.bills\.billId\b/);
      expect(r.requirements).toContain('D1-4.12-02');
      expect(r.exchange).toBeDefined();
    }
  });

  test('is never a MUST failure of the server', () => {
    const results = notHeld.results?.results ?? [];
    const failed = results.filter((r) => r.level === 'MUST' && r.status === 'fail');
    expect(failed.map((r) => `${r.operation} ${r.check}: ${r.message}`)).toEqual([]);
    const aboutIt = results.filter(
      (r) => r.status === 'fail' && `${r.message} ${JSON.stringify(r.evidence ?? {})}`.includes(UNKNOWN_BILL),
    );
    expect(aboutIt).toEqual([]);
  });

  test('counts against coverage: inconclusive (exit 3) below the minimum, never exit 1', () => {
    const results = notHeld.results;
    expect(results?.coverage?.overall.notJudged['fixture not held by the target']).toBeGreaterThan(0);
    expect(results?.verdict).toBe('inconclusive');
    expect(results?.verdictReason).toMatch(/below the minimum of 90%.*fixture not held by the target/);
    expect(notHeld.code).toBe(3);
    expect(notHeld.stdout).toMatch(/get-bill: not judged: .*\d+ fixture not held by the target/);
  });
});

describe('a bill the target has just returned from its search, then answers 404 for', () => {
  test('still fails the success status at MUST (exit 1): the skip hides no fault', () => {
    const results = heldButMissing.results?.results ?? [];
    expect(results.filter((r) => r.check === 'fixture-held')).toEqual([]);
    const failed = results.filter((r) => r.operation === 'get-bill' && r.level === 'MUST' && r.status === 'fail');
    expect(failed.map((r) => `${r.check}: ${r.message}`)).toContain(
      'success-status: Expected HTTP 200, received HTTP 404',
    );
    expect(heldButMissing.results?.verdict).toBe('not-conformant');
    expect(heldButMissing.code).toBe(1);
  });
});

describe('a wrong discovery path in the config', () => {
  test('is one line naming the config key to check, exit 2 (a config problem), never 1', () => {
    expect(wrongDiscovery.code).not.toBe(1);
    expect(wrongDiscovery.code).toBe(2);
    const lines = wrongDiscovery.stderr.trim().split('\n');
    expect(lines).toEqual([
      `conformance: discovery document of service membership not found at ${wrongDiscoveryUrl} (HTTP 404): check config \`services.membership.discovery\``,
    ]);
    expect(wrongDiscovery.stdout + wrongDiscovery.stderr).not.toMatch(/\n\s+at /);
  });
});
