/**
 * Pact's Verifier against the real sandbox over HTTP: the reference pacts pass on the clean
 * sandbox (sealed, intact report folder), fail on a sandbox with a status fault for that fault's
 * operation only, and a run that cannot start answers exit 2 with one line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyReportDir } from '../reports/writeReports.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { faultInfo } from '../server/faults/catalog.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { generateReferencePacts } from './generate.ts';
import { stricterThanCited } from '../test/support/levels.ts';
import { startRelocatingProxy } from '../test/support/relocatingProxy.ts';
import { verifyPacts } from './verify.ts';

const FAULT = 'ack-returns-204';
let dir: string;
let pacts: string[];
let clean: RunningSandbox;
let faulty: RunningSandbox;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pact-verify-test-'));
  [pacts, clean, faulty] = await Promise.all([
    generateReferencePacts(join(dir, 'pacts')),
    startSandbox(),
    startSandbox({ faults: [FAULT] }),
  ]);
});
afterAll(async () => {
  await Promise.all([clean?.close(), faulty?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const run = (target: string, reportDir: string, extra: Partial<Parameters<typeof verifyPacts>[0]> = {}) =>
  verifyPacts({
    target,
    pactFiles: pacts,
    config: DEMO_CONFIG_FILE,
    environmentFallbacks: { ...DEMO_ENVIRONMENT },
    reportDir: join(dir, reportDir),
    ...extra,
  });

// Pact's verifier is slow on a loaded machine (7 s a test idle, over 60 s under a full npm test beside another run).
describe('verifyPacts', { timeout: 240_000 }, () => {
  test('the reference pacts pass against the clean sandbox, into a sealed, intact report folder', async () => {
    const out = await run(clean.url, 'clean');
    expect(out.problem).toBeUndefined();
    expect(out.exitCode).toBe(0);
    expect(out.results?.verdict).toBe('conformant');
    const results = out.results?.results ?? [];
    expect(results.length).toBeGreaterThan(60);
    expect(results.every((r) => r.check === 'pact-interaction-verified' && r.status === 'pass')).toBe(true);
    expect(results.every((r) => r.requirements.length > 0 || r.message.includes('verified'))).toBe(true);
    expect(stricterThanCited(out.results!)).toEqual([]);
    const check = await verifyReportDir(join(dir, 'clean'));
    expect(check.integrity.state).toBe('intact');
    expect(check.intact).toBe(true);
  });

  test(`against the sandbox with ${FAULT} only that fault's operation fails`, async () => {
    const out = await run(faulty.url, 'faulty');
    expect(out.exitCode).toBe(1);
    expect(out.results?.verdict).toBe('not-conformant');
    const failing = (out.results?.results ?? []).filter((r) => r.status !== 'pass');
    expect(failing.map((r) => r.operation)).toEqual(faultInfo(FAULT)?.operations);
    expect(failing[0].status).toBe('fail');
    expect(failing[0].message).toMatch(/^Expected .*received: expected 200 but was 204/);
    expect((await verifyReportDir(join(dir, 'faulty'))).intact).toBe(true);
  });

  test('a target whose discovered addresses are not the reference ones is verified at its own addresses', async () => {
    const proxy = await startRelocatingProxy(clean.url);
    try {
      const out = await run(proxy.url, 'relocated');
      expect(out.problem).toBeUndefined();
      expect((out.results?.results ?? []).filter((r) => r.status !== 'pass').map((r) => r.message)).toEqual([]);
      expect(out.exitCode).toBe(0);
      expect(proxy.refused).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  test('fixture states: states the fixtures do not name are skipped, destructive operations omitted', async () => {
    const out = await run(clean.url, 'fixtures', { stateSource: 'fixtures' });
    expect(out.exitCode).toBe(0);
    const results = out.results?.results ?? [];
    const skipped = results.filter((r) => r.status === 'skip');
    expect(skipped.map((r) => r.operation)).toContain('get-remittance-details');
    expect(
      skipped.every((r) => r.check === 'fixture-configured' && r.message.startsWith('Not verified: no fixture')),
    ).toBe(true);
    expect(results.filter((r) => r.status === 'omit').map((r) => r.operation)).toContain('create-patient');
    expect(results.filter((r) => r.status === 'pass').map((r) => r.operation)).toContain('find-member-v2');
    expect(results.some((r) => r.status === 'fail' || r.status === 'error')).toBe(false);
  });

  test('an unreachable target, an unreadable or malformed pact file: exit 2 with one line', async () => {
    const down = await run('http://127.0.0.1:9', 'down');
    expect(down.exitCode).toBe(2);
    expect(down.problem).toMatch(/^Target unreachable/);
    const missing = await run(clean.url, 'missing', { pactFiles: [join(dir, 'nope.json')] });
    expect(missing).toMatchObject({ exitCode: 2 });
    expect(missing.problem).toMatch(/^cannot read .*nope\.json: ENOENT$/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"consumer":{"name":"c"},"provider":{"name":"p"},"interactions":[{}]}');
    const malformed = await run(clean.url, 'malformed', { pactFiles: [bad] });
    expect(malformed.exitCode).toBe(2);
    expect(malformed.problem).toMatch(/bad\.json: interaction "interaction 0" has no request method and path$/);
    expect(malformed.problem).not.toContain('\n');
  });
});
