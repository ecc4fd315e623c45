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
