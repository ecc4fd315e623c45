/**
 * The certification self-test: the reference client (examples/reference-client) certified against
 * a workspace per scenario over real HTTP is conformant, with a sealed report; every client fault
 * makes certification fail on its own check (a SHOULD rule: warned); a client that does nothing
 * leaves the certification inconclusive; two certifications at once never see each other's data.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  CLIENT_FAULTS,
  type ClientChoice,
  type ClientFault,
  ReferenceClient,
} from '../examples/reference-client/referenceClient.ts';
import { verifyReportDir } from '../reports/writeReports.ts';
import { stricterThanCited } from '../test/support/levels.ts';
import { type Certification, startCertification } from './certification.ts';
import { SCENARIOS } from './scenarios.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-'));
// The reference client has finished before the wait starts, so a short time-out only ends the
// scenarios it left incomplete (a fault that stops the flow).
const TIMEOUT_MS = 1500;

async function certify(scenarios: string[], faults: ClientFault[] = [], reportName = scenarios.join('+')) {
  const cert: Certification = await startCertification({ scenarios });
  try {
    await Promise.all(cert.runs.map((r) => new ReferenceClient(r.workspace.config, faults).run().catch(() => {})));
    await cert.wait(TIMEOUT_MS, 300);
    // The batch cycle is reserved for the operator's own products (D1-1-10): the reference client plays one.
    return await cert.finish({
      reportDir: join(dir, `${reportName}-${faults.join('+')}`),
      timeoutMs: TIMEOUT_MS,
      operatorProduct: true,
    });
  } finally {
    await cert.close();
  }
}

const ALL_SCENARIOS = [
  'find-member-two-step',
  'batch-cycle',
  'patient-create',
  'patient-lifecycle',
  'address-drill-down',
  'register-paging',
  'token-revoke-and-logout',
  'expired-token',
  'malformed-answer',
];

/** The fault, the scenario that shows it, the check that must catch it and at which level. */
const FAULT_CASES: [ClientFault, string, string, 'fail' | 'warn'][] = [
  ['no-site-id', 'find-member-two-step', 'client-sends-header', 'fail'],
  ['wrong-version-header', 'find-member-two-step', 'client-sends-header', 'fail'],
  ['no-refinement', 'find-member-two-step', 'client-refines-after-multiple-match', 'fail'],
  ['ack-before-get', 'batch-cycle', 'client-acknowledges-after-get', 'fail'],
  ['hard-coded-addresses', 'find-member-two-step', 'client-uses-discovered-address', 'fail'],
  ['blind-retry', 'expired-token', 'client-no-blind-retry', 'warn'],
  ['wrong-patient-id', 'patient-lifecycle', 'client-uses-created-patient-id', 'fail'],
  ['pipe-not-encoded', 'address-drill-down', 'client-encodes-pipe', 'fail'],
  ['retrieves-without-drill-down', 'address-drill-down', 'client-retrieves-address-item', 'fail'],
  ['stops-at-first-page', 'register-paging', 'client-pages-to-last-page', 'warn'],
  ['bearer-on-token-details', 'token-revoke-and-logout', 'client-sends-header', 'fail'],
  ['revoke-without-client-headers', 'token-revoke-and-logout', 'client-revoke-names-client', 'fail'],
  ['acks-after-malformed-list', 'malformed-answer', 'client-acknowledges-after-get', 'fail'],
  ['date-not-iso', 'find-member-two-step', 'client-sends-documented-parameters', 'fail'],
  ['patient-body-invalid', 'patient-create', 'client-body-matches-schema', 'fail'],
  ['patient-with-own-id', 'patient-create', 'client-create-without-id', 'fail'],
];

describe('certify-client with the reference client', () => {
  test('the clean client is certified on every scenario, into a sealed report', async () => {
    const o = await certify(ALL_SCENARIOS, [], 'all');
    const bad = o.results!.results.filter((r) => r.level === 'MUST' && r.status !== 'pass' && r.status !== 'skip');
    expect(bad.map((r) => `${r.test} ${r.operation} ${r.check}: ${r.message}`)).toEqual([]);
    expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
    const ends = o.results!.results.filter((r) => r.check === 'scenario-completed').map((r) => r.status);
    expect(ends).toEqual(ALL_SCENARIOS.map(() => 'pass'));
    expect(o.results!.results.filter((r) => r.status === 'warn').map((r) => r.check)).not.toContain(
      'client-no-blind-retry',
    );
    expect(stricterThanCited(o.results!)).toEqual([]);
    expect(o.results!.coverage?.overall.judged).toBeGreaterThan(0);
    expect((await verifyReportDir(o.reports!.resultsJson.replace(/results\.json$/, ''))).intact).toBe(true);
    // The report names every scenario with its outcome (report.html, Scenarios).
    const html = readFileSync(o.reports!.reportHtml, 'utf8');
    for (const id of ALL_SCENARIOS) expect(html).toContain(`<tr data-scenario="${id}">`);
    expect(html).toContain('id="scenarios-table"');
  });

  test('an external integrator that consumes the reserved batch cycle is refused for it', async () => {
    const cert = await startCertification({ scenarios: ['batch-cycle'] });
    try {
      await new ReferenceClient(cert.runs[0].workspace.config).run();
      await cert.wait(TIMEOUT_MS, 300);
      const o = await cert.finish({ reportDir: join(dir, 'external'), timeoutMs: TIMEOUT_MS });
      expect(o.exitCode).toBe(1);
      const refused = o.results!.results.filter((r) => r.status === 'fail').map((r) => `${r.operation} ${r.check}`);
      expect(new Set(refused)).toEqual(
        new Set(
          ['list-pending-remittances', 'get-remittance-details', 'ack-remittance'].map(
            (id) => `${id} client-avoids-reserved`,
          ),
        ),
      );
    } finally {
      await cert.close();
    }
  });

  test('a client that stops after the 401 (a choice the documents leave open, DEC-C-01) is certified', async () => {
    const cert = await startCertification({ scenarios: ['expired-token'] });
    try {
      await new ReferenceClient(cert.runs[0].workspace.config, [], ['stop-after-refusal']).run();
      await cert.wait(TIMEOUT_MS, 300);
      const o = await cert.finish({ reportDir: join(dir, 'stops'), timeoutMs: TIMEOUT_MS });
      expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
      expect(o.results!.results.find((r) => r.check === 'scenario-completed')?.message).toMatch(
        /stopped where the scenario allows it to/,
      );
      expect(o.results!.results.filter((r) => r.status === 'warn')).toEqual([]);
    } finally {
      await cert.close();
    }
  });

  /** Client choices where the documents leave a caller free (spec/silences.ts), each with the scenarios it shows in. */
  const CHOICE_CASES: [ClientChoice, string[]][] = [
    ['patient-version-header-other-name', ['patient-create', 'patient-lifecycle']],
    ['page-past-last', ['register-paging']],
    ['lists-again-after-unreadable-list', ['malformed-answer', 'batch-cycle']],
  ];
  test.each(CHOICE_CASES)(
    'a client that %s (a choice the documents leave open) is certified',
    async (choice, shows) => {
      const cert = await startCertification({ scenarios: ALL_SCENARIOS });
      try {
        await Promise.all(
          cert.runs.map((r) => new ReferenceClient(r.workspace.config, [], [choice]).run().catch(() => {})),
        );
        await cert.wait(TIMEOUT_MS, 300);
        const o = await cert.finish({
          reportDir: join(dir, `choice-${choice}`),
          timeoutMs: TIMEOUT_MS,
          operatorProduct: true,
        });
        const bad = o.results!.results.filter((r) => r.level === 'MUST' && r.status !== 'pass' && r.status !== 'skip');
        expect(bad.map((r) => `${r.test} ${r.operation} ${r.check}: ${r.message}`)).toEqual([]);
        expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
        // A warning at SHOULD is a finding; one at INFO is the observation DEC-C-03 records (the header's name).
        const warned = o.results!.results.filter((r) => r.status === 'warn' && r.level !== 'INFO');
        expect(warned.map((r) => `${r.check}: ${r.message}`)).toEqual([]);
        // The choice really changes what the client sends in the scenarios it shows in.
        const sent = (cs: readonly ClientChoice[]) => async () => {
          const c = await startCertification({ scenarios: shows });
          try {
            await Promise.all(c.runs.map((r) => new ReferenceClient(r.workspace.config, [], cs).run().catch(() => {})));
            return c.runs.flatMap((r) =>
              r.workspace.exchanges.map(
                (x) => `${x.method} ${x.path ?? x.rawUrl} ${x.status} ${Object.keys(x.headers).sort()}`,
              ),
            );
          } finally {
            await c.close();
          }
        };
        expect(await sent([choice])()).not.toEqual(await sent([])());
      } finally {
        await cert.close();
      }
    },
  );

  test("a browser client's CORS preflights are answered and judged on their address alone (D3 4.2)", async () => {
    const cert = await startCertification({ scenarios: ['token-revoke-and-logout', 'expired-token'] });
    try {
      await Promise.all(cert.runs.map((r) => new ReferenceClient(r.workspace.config, [], ['browser-preflight']).run()));
      await cert.wait(TIMEOUT_MS, 300);
      // Logout and revoke are reserved for the operator's own products (D3-1-10).
      const o = await cert.finish({ reportDir: join(dir, 'browser'), timeoutMs: TIMEOUT_MS, operatorProduct: true });
      const bad = o.results!.results.filter((r) => r.status === 'fail' || r.status === 'error');
      expect(bad.map((r) => `${r.operation} ${r.check}: ${r.message}`)).toEqual([]);
      expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
      const logout = cert.runs[0].workspace.exchanges.findIndex(
        (x) => x.method === 'OPTIONS' && x.rawUrl.endsWith('/logout'),
      );
      expect(logout).toBeGreaterThan(-1);
      const served = cert.runs[0].workspace.exchanges[logout];
      expect([served.status, served.responseHeaders['access-control-allow-methods']]).toEqual([204, 'GET, OPTIONS']);
      // Each preflight is judged once, on its address: no header, parameter or reserved-operation check.
      const r = o.results!;
      const onPreflights = r.results.filter(
        (x) => x.exchange !== undefined && r.exchanges[x.exchange].method === 'OPTIONS',
      );
      expect(new Set(onPreflights.map((x) => `${x.check} ${x.status}`))).toEqual(
        new Set(['client-uses-discovered-address pass']),
      );
      const onLogout = onPreflights.filter((x) => r.exchanges[x.exchange ?? -1].url.endsWith('/logout'));
      expect(onLogout.map((x) => [x.operation, x.check, x.status])).toEqual([
        ['logout', 'client-uses-discovered-address', 'pass'],
      ]);
      const preflights = cert.runs.flatMap((r) => r.workspace.exchanges.filter((x) => x.method === 'OPTIONS'));
      expect(preflights.length).toBeGreaterThanOrEqual(4);
      expect(preflights.every((x) => x.status === 204)).toBe(true);
    } finally {
      await cert.close();
    }
  });

  test('with its preflights in between, a blind retry is still caught (a preflight is no part of a flow)', async () => {
    const cert = await startCertification({ scenarios: ['expired-token'] });
    try {
      await new ReferenceClient(cert.runs[0].workspace.config, ['blind-retry'], ['browser-preflight']).run();
      await cert.wait(TIMEOUT_MS, 300);
      const o = await cert.finish({ reportDir: join(dir, 'browser-blind'), timeoutMs: TIMEOUT_MS });
      expect(cert.runs[0].workspace.exchanges.some((x) => x.method === 'OPTIONS')).toBe(true);
      expect(o.results!.results.find((r) => r.check === 'client-no-blind-retry')?.status).toBe('warn');
    } finally {
      await cert.close();
    }
  });

  test('a preflight outside the discovered addresses fails client-uses-discovered-address', async () => {
    const cert = await startCertification({ scenarios: ['token-revoke-and-logout'] });
    try {
      const { tokenUrl } = cert.runs[0].workspace.config;
      const answer = await fetch(`${new URL(tokenUrl).origin}/auth/logout`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
      });
      expect(answer.status).toBe(404);
      const o = await cert.finish({ reportDir: join(dir, 'preflight-outside'), timeoutMs: 100 });
      const address = o.results!.results.filter((r) => r.check === 'client-uses-discovered-address');
      expect(address.map((r) => [r.status, r.message])).toEqual([
        [
          'fail',
          'Expected an address from the discovery documents, received a CORS preflight (for GET) at /auth/logout',
        ],
      ]);
    } finally {
      await cert.close();
    }
  });

  test('the clean run names every scenario', () => {
    expect([...ALL_SCENARIOS].sort()).toEqual(SCENARIOS.map((s) => s.id).sort());
  });

  test('every client fault is named and has a case', () => {
    expect(FAULT_CASES.map(([f]) => f).sort()).toEqual(Object.keys(CLIENT_FAULTS).sort());
  });

  test.concurrent.each(FAULT_CASES)('%s is caught by its check', async (fault, scenario, check, status) => {
    const o = await certify([scenario], [fault]);
    const caught = o.results!.results.filter((r) => r.check === check && r.status === status);
    expect(
      caught.length,
      `${fault}: results ${o.results!.results.map((r) => `${r.check}=${r.status}`).join(', ')}`,
    ).toBeGreaterThan(0);
    if (status === 'fail') expect(o.exitCode).toBe(1);
  });

  test('a client that does nothing leaves the certification inconclusive', async () => {
    const cert = await startCertification({ scenarios: ['batch-cycle'] });
    try {
      await cert.wait(500, 100);
      const o = await cert.finish({ reportDir: join(dir, 'idle'), timeoutMs: 500 });
      expect([o.exitCode, o.results?.verdict]).toEqual([3, 'inconclusive']);
      expect(o.results!.results.find((r) => r.check === 'scenario-completed')?.message).toMatch(
        /within 1 s, received 0 request\(s\) and no end/,
      );
    } finally {
      await cert.close();
    }
  });

  test("two certifications at once: each sees only its own client's requests and data", async () => {
    const [a, b] = await Promise.all([
      startCertification({ scenarios: ['batch-cycle'] }),
      startCertification({ scenarios: ['batch-cycle'] }),
    ]);
    try {
      expect(a.runs[0].workspace.config.discovery.claims).not.toBe(b.runs[0].workspace.config.discovery.claims);
      await new ReferenceClient(a.runs[0].workspace.config).run();
      expect(a.runs[0].workspace.exchanges.length).toBeGreaterThan(0);
      expect(b.runs[0].workspace.exchanges).toEqual([]);
      // a's acknowledgement removed BATCH-1002 from a's data only: b still lists it.
      const client = new ReferenceClient(b.runs[0].workspace.config);
      await client.run();
      const acks = b.runs[0].workspace.exchanges.filter((x) => x.method === 'DELETE');
      expect(acks.map((x) => [x.rawUrl.split('/').pop(), x.status])).toEqual([['BATCH-1002', 200]]);
      // a's credentials are unknown to b.
      const config = a.runs[0].workspace.config;
      const token = await fetch(b.runs[0].workspace.config.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: config.clientId,
          client_secret: config.clientSecret,
        }),
      });
      expect(token.status).toBeGreaterThanOrEqual(400);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
