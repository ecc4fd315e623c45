/**
 * The partner example's self-test: the consumer test (writePartnerPact.ts, Pact's mock server and
 * the example client) writes a pact that `pact check` accepts, parts (a), (b) and (c) together
 * against the sandbox; each broken variant writes a pact that `pact check` refuses for its rule;
 * and the clean pact is refused when its consumer is an external integrator, as it consumes the
 * batch cycle, reserved for the operator's own products.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RunOutcome } from '../../app/runConformance.ts';
import { checkPartnerPactAgainstSandbox } from '../../pacts/check/againstSandbox.ts';
import { verifyReportDir } from '../../reports/writeReports.ts';
import { stricterThanCited } from '../../test/support/levels.ts';
import { BROKEN_VARIANTS, type BrokenVariant, writePartnerPact } from './writePartnerPact.ts';

const dir = mkdtempSync(join(tmpdir(), 'partner-consumer-'));

const failures = (o: RunOutcome) =>
  (o.results?.results ?? []).filter((r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'error'));

describe('the partner example', () => {
  test('its pact is accepted: OpenAPI, requirement table and verification against the sandbox', async () => {
    const pactFile = await writePartnerPact(join(dir, 'clean'));
    const reportDir = join(dir, 'report-clean');
    const o = await checkPartnerPactAgainstSandbox({ pactFile, reportDir, operatorProduct: true });
    expect(failures(o).map((r) => `${r.operation} ${r.check}: ${r.message}`)).toEqual([]);
    expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
    const verified = o.results!.results.filter((r) => r.check === 'pact-interaction-verified');
    expect(verified.map((r) => r.status)).toEqual(Array(6).fill('pass'));
    expect(new Set(o.results!.operations.map((op) => op.id))).toEqual(
      new Set([
        'find-member-v2',
        'list-pending-remittances',
        'get-remittance-details',
        'ack-remittance',
        'create-patient',
      ]),
    );
    expect(stricterThanCited(o.results!)).toEqual([]);
    expect((await verifyReportDir(reportDir)).intact).toBe(true);

    const external = await checkPartnerPactAgainstSandbox({ pactFile, reportDir: join(dir, 'report-external') });
    expect(external.exitCode).toBe(1);
    expect(new Set(failures(external).map((r) => `${r.operation} ${r.check}`))).toEqual(
      new Set(
        ['list-pending-remittances', 'get-remittance-details', 'ack-remittance'].map(
          (id) => `${id} client-avoids-reserved`,
        ),
      ),
    );
  });

  test.each(Object.keys(BROKEN_VARIANTS) as BrokenVariant[])(
    'the broken variant %s is refused for its rule',
    async (variant) => {
      const pactFile = await writePartnerPact(join(dir, variant), variant);
      const o = await checkPartnerPactAgainstSandbox({
        pactFile,
        reportDir: join(dir, `report-${variant}`),
        operatorProduct: true,
      });
      expect([o.exitCode, o.results?.verdict]).toEqual([1, 'not-conformant']);
      expect(failures(o).map((r) => r.check)).toContain(BROKEN_VARIANTS[variant].rule);
    },
  );

  test('a file that is not a pact is a one-line problem, exit 2', async () => {
    const o = await checkPartnerPactAgainstSandbox({ pactFile: join(dir, 'absent.json'), reportDir: join(dir, 'r') });
    expect(o.exitCode).toBe(2);
    expect(o.problem).toMatch(/^cannot read .*absent\.json: ENOENT$/);
  });
});
