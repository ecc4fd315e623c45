/**
 * The contract-file commands at the command line (issue 12): `conformance openapi`, `pact
 * generate`, `pact verify` against the sandbox over HTTP, and `pact check` of the partner
 * example's pact, with their exit codes and one-line problems. The command's entry point runs in
 * this process for option checks; the binary runs once for a verification.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writePartnerPact } from '../examples/partner-consumer/writePartnerPact.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { readResults, runCli, runInProcess } from './support/cli.ts';

const inProcess = runInProcess;

const dir = mkdtempSync(join(tmpdir(), 'pact-cli-'));
let sandbox: RunningSandbox;
let partnerPact: string;
beforeAll(async () => {
  [sandbox, partnerPact] = await Promise.all([startSandbox(), writePartnerPact(join(dir, 'partner'))]);
});
afterAll(() => sandbox?.close());

describe('conformance openapi', () => {
  test('writes the family document and one per service', async () => {
    const out = join(dir, 'openapi');
    const r = await inProcess(['openapi', '--out', out]);
    expect(r.code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files).toContain('openapi.json');
    expect(files.length).toBe(r.stdout.trim().split('\n').length);
    expect(JSON.parse(readFileSync(join(out, 'openapi.json'), 'utf8')).openapi).toMatch(/^3\.1\./);
  });

  test('refuses a file as --out with one line, exit 2', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const r = await inProcess(['openapi', '--out', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`conformance: --out ${file} is a file, not a folder`);
  });
});

describe('conformance pact', () => {
  test('generate writes one reference pact per service', async () => {
    const out = join(dir, 'pacts');
    const r = await inProcess(['pact', 'generate', '--out', out]);
    expect(r.code).toBe(0);
    const files = r.stdout.trim().split('\n');
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const f of files) expect(existsSync(f)).toBe(true);
  });

  test("verify runs Pact's Verifier against the sandbox; the native verifier prints nothing", async () => {
    const out = join(dir, 'pacts-verify');
    await inProcess(['pact', 'generate', '--out', out]);
    const pact = join(out, 'reference-consumer-membership.json');
    const report = join(dir, 'verify-report');
    const r = await runCli(['pact', 'verify', '--target', sandbox.url, '--pact', pact, '--report-dir', report]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Verdict: CONFORMANT/m);
    expect(r.stdout).not.toMatch(/Verifying a pact between|returns a response which/);
    const results = readResults(report);
    expect(results.results.every((x) => x.check === 'pact-interaction-verified')).toBe(true);
  });

  test('check accepts the partner example for an operator product and refuses it for an external integrator', async () => {
    const ok = await inProcess(['pact', 'check', partnerPact, '--operator-product', '--report-dir', join(dir, 'c1')]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^Verdict: CONFORMANT/m);
    const external = await inProcess(['pact', 'check', partnerPact, '--quiet', '--report-dir', join(dir, 'c2')]);
    expect(external.code).toBe(1);
    expect(external.stdout).toMatch(/^Verdict: NOT CONFORMANT/m);
  });

  test('check of a pact calling Find Member version 1 fails for a partner (D1-4.1-16) and passes for an operator product', async () => {
    // The partner example's Find Member interactions, sent as version 1.
    const example = JSON.parse(readFileSync(partnerPact, 'utf8')) as {
      interactions: { description: string; request: { path: string; headers: Record<string, string> } }[];
    };
    const interactions = example.interactions
      .filter((i) => i.request.path === '/membership/find-member')
      .map((i) => ({
        ...i,
        description: `${i.description} (version 1)`,
        request: { ...i.request, headers: { ...i.request.headers, 'SVC-API-Version': '1' } },
      }));
    expect(interactions.length).toBe(2);
    const v1 = join(dir, 'partner-v1.json');
    writeFileSync(v1, JSON.stringify({ ...example, interactions }));
    const partner = await inProcess(['pact', 'check', v1, '--report-dir', join(dir, 'c3')]);
    expect(partner.stderr).toBe('');
    expect(partner.code).toBe(1);
    expect(partner.stdout).toMatch(/^Verdict: NOT CONFORMANT/m);
    const failed = readResults(join(dir, 'c3')).results.filter((x) => x.status === 'fail');
    expect(new Set(failed.map((x) => `${x.check} ${x.requirements.join(' ')}`))).toEqual(
      new Set(['client-avoids-deprecated D1-4.1-16']),
    );
    expect(partner.stdout).toContain('D1-4.1-16');
    const operator = await inProcess(['pact', 'check', v1, '--operator-product', '--report-dir', join(dir, 'c4')]);
    expect(operator.code).toBe(0);
    const recorded = readResults(join(dir, 'c4')).results.filter((x) => x.check === 'client-avoids-deprecated');
    expect(new Set(recorded.map((x) => `${x.status} ${x.level}`))).toEqual(new Set(['warn INFO']));
  });

  test.each([
    [['pact'], 'pact needs generate, verify or check'],
    [['pact', 'publish'], 'Unknown pact command "publish"'],
    [['pact', 'verify'], 'pact verify needs --target URL'],
    [
      ['pact', 'verify', '--target', 'http://127.0.0.1:9', '--states', 'guess'],
      '--states must be endpoint or fixtures, received "guess"',
    ],
    [
      ['pact', 'verify', '--target', 'http://127.0.0.1:9', '--pact', '/nonexistent.json'],
      '--pact /nonexistent.json is not a readable file',
    ],
    [['pact', 'check'], 'pact check needs exactly one pact file'],
    [['pact', 'check', '/nonexistent.json'], 'cannot read /nonexistent.json: ENOENT'],
  ])('%j: one line, exit 2', async (args, message) => {
    const r = await inProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`conformance: ${message}`);
    expect(r.stdout).toBe('');
  });
});
