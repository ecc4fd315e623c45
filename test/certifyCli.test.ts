/**
 * `conformance certify-client` at the command line: the scenario list, a one-line problem for an
 * unknown scenario, and a whole certification through the binary with the reference client
 * driven by the file `--config-out` writes (the workspace secret kept out of the log).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type ClientConfig, ReferenceClient } from '../examples/reference-client/referenceClient.ts';
import { readResults, runCli, runInProcess } from './support/cli.ts';

const inProcess = runInProcess;

const dir = mkdtempSync(join(tmpdir(), 'certify-cli-'));

describe('conformance certify-client', () => {
  test('--list names every scenario with what the client must do', async () => {
    const r = await inProcess(['certify-client', '--list']);
    expect(r.code).toBe(0);
    for (const id of ['find-member-two-step', 'batch-cycle', 'patient-create', 'expired-token'])
      expect(r.stdout).toMatch(new RegExp(`^${id} `, 'm'));
    // The operator-only scenarios are marked; a partner's client runs the others by default.
    const marked = r.stdout
      .split('\n')
      .filter((l) => l.endsWith('[operator products only: run with --operator-product]'));
    expect(marked.map((l) => l.split(' ')[0]).sort()).toEqual([
      'address-drill-down',
      'batch-cycle',
      'malformed-answer',
      'register-paging',
      'token-revoke-and-logout',
    ]);
  });

  test('a client that sends nothing is told so before the time-out, and the advice speaks to the client', async () => {
    const reportDir = join(dir, 'silent');
    const r = await inProcess([
      'certify-client',
      '--scenarios',
      'patient-create',
      '--timeout',
      '4',
      '--report-dir',
      reportDir,
    ]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^No request has reached any workspace after 1 s: configure your client/m);
    expect(r.stdout).not.toMatch(/http\.timeoutMs/);
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).not.toMatch(/http\.timeoutMs/);
  });

  test('a named operator-only scenario without --operator-product is noted, not refused', async () => {
    const r = await inProcess([
      'certify-client',
      '--scenarios',
      'batch-cycle',
      '--timeout',
      '1',
      '--quiet',
      '--report-dir',
      join(dir, 'noted'),
    ]);
    expect(r.stderr.split('\n')[0]).toBe(
      "Note: batch-cycle call operations reserved for the operator's own products; without --operator-product each such call fails client-avoids-reserved.",
    );
  });

  test('an unknown scenario or a bad time-out is one line, exit 2', async () => {
    const r = await inProcess(['certify-client', '--scenarios', 'find-member-two-step,guess']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('conformance: Unknown scenario guess (see conformance certify-client --list)');
    const t = await inProcess(['certify-client', '--timeout', '0']);
    expect(t.code).toBe(2);
  });

  test('the reference client, driven by --config-out, is certified; the secret stays out of the log', async () => {
    const configOut = join(dir, 'workspaces.json');
    const reportDir = join(dir, 'report');
    const run = runCli([
      'certify-client',
      '--scenarios',
      'find-member-two-step,patient-create',
      '--config-out',
      configOut,
      '--timeout',
      '60',
      '--report-dir',
      reportDir,
    ]);
    while (!existsSync(configOut)) await new Promise((r) => setTimeout(r, 100));
    const configs = JSON.parse(readFileSync(configOut, 'utf8')) as ClientConfig[];
    await Promise.all(configs.map((c) => new ReferenceClient(c).run()));
    const r = await run;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Verdict: CONFORMANT/m);
    expect(r.stdout).toMatch(/^Scenario find-member-two-step: /m);
    for (const c of configs) {
      expect(r.stdout).not.toContain(c.clientSecret);
      expect(readFileSync(join(reportDir, 'results.json'), 'utf8')).not.toContain(c.clientSecret);
    }
    expect(readResults(reportDir).results.some((x) => x.check === 'client-refines-after-multiple-match')).toBe(true);
  });
});
