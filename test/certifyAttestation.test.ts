/**
 * `certify-client --config FILE` fills the attestation of a client certification (issue 25 item 8):
 * the report names the client certified as a server run's names its target's operator; a config
 * that fails the schema is one line, exit 2, before any workspace starts.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type ClientConfig, ReferenceClient } from '../examples/reference-client/referenceClient.ts';
import { readResults, runCli, runInProcess } from './support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-attestation-'));
const ATTESTATION = {
  organisation: 'Partner Software Ltd',
  product: 'PracticeDesk 4.2',
  environment: 'staging',
  person: 'A. Tester',
} as const;

describe('certify-client --config FILE', () => {
  test("the config's attestation names the client in results.json and report.html", async () => {
    const config = join(dir, 'client.json');
    writeFileSync(config, JSON.stringify({ attestation: ATTESTATION }));
    const configOut = join(dir, 'workspaces.json');
    const reportDir = join(dir, 'report');
    const run = runCli([
      'certify-client',
      '--config',
      config,
      '--scenarios',
      'find-member-two-step',
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
    expect(r.stdout).toMatch(/^Verdict: CONFORMANT/m);
    expect(r.code).toBe(0);
    expect(readResults(reportDir).attestation).toEqual(ATTESTATION);
    const page = readFileSync(join(reportDir, 'report.html'), 'utf8');
    expect(page).toContain('<dd data-attestation="organisation">Partner Software Ltd</dd>');
    expect(page).toContain('<dd data-attestation="person">A. Tester</dd>');
    expect(page).not.toContain('does not state every field');
  });

  test('a config that fails the schema, or cannot be read, is one line and exit 2 before any workspace', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ attestation: { ...ATTESTATION, environment: 'test' } }));
    const r = await runInProcess(['certify-client', '--config', bad, '--report-dir', join(dir, 'never')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `conformance: Config file ${bad} is invalid at /attestation/environment: must be equal to one of the allowed values\n`,
    );
    expect(existsSync(join(dir, 'never'))).toBe(false);
    const missing = await runInProcess(['certify-client', '--config', join(dir, 'none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^conformance: Cannot read config file .*none\.json: ENOENT\n$/);
  });
});
