/**
 * The certification self-test: the reference client (examples/reference-client) certified against
 * a workspace per scenario over real HTTP is conformant, with a sealed report; every client fault
 * makes certification fail on its own check (a SHOULD rule: warned); a client that does nothing
 * leaves the certification inconclusive; two certifications at once never see each other's data.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  CLIENT_FAULTS,
  type ClientChoice,
  type ClientFault,
  ReferenceClient,
} from '../examples/reference-client/referenceClient.ts';
import { findingsOf } from '../core/findings.ts';
import { verifyReportDir } from '../reports/writeReports.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { stricterThanCited } from '../test/support/levels.ts';
import { type Certification, defaultScenarios, startCertification } from './certification.ts';
import { CLIENT_FAULT_CASES, unprovenClientRows } from './clientFaults.ts';
import { SCENARIOS } from './scenarios.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-'));
// The reference client has finished before the wait starts, so a short time-out only ends the
// scenarios it left incomplete (a fault that stops the flow).
const TIMEOUT_MS = 1500;

async function certify(
  scenarios: string[],
  faults: ClientFault[] = [],
  reportName = scenarios.join('+'),
  operatorProduct = true,
) {
  const cert: Certification = await startCertification({ scenarios });
  try {
    await Promise.all(cert.runs.map((r) => new ReferenceClient(r.workspace.config, faults).run().catch(() => {})));
    await cert.wait(TIMEOUT_MS, 300);
    // The batch cycle is reserved for the operator's own products (D1-1-10): the reference client plays one.
    return await cert.finish({
      reportDir: join(dir, `${reportName}-${faults.join('+')}`),
      timeoutMs: TIMEOUT_MS,
      operatorProduct,
    });
  } finally {
    await cert.close();
  }
}

/**
 * Advice meant for a server found in a client's report folder (report.html, junit.xml, the CSV and
 * results.json): a server run's setting, or a change addressed to an API operation.
 */
function serverAdviceIn(resultsJson: string): string[] {
  const folder = dirname(resultsJson);
  return readdirSync(folder)
    .filter((f) => /\.(html|xml|csv|json|md)$/.test(f))
    .flatMap((f) =>
      (
        readFileSync(join(folder, f), 'utf8').match(
          /http\.timeoutMs|(?:Change|Consider changing|Look at) (?!your client)[a-z0-9()-][a-z0-9() ,-]* so that|the target answers/g,
        ) ?? []
      ).map((m) => `${f}: ${m}`),
    );
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

describe('certify-client with the reference client', () => {
  test('the clean client is certified on every scenario, into a sealed report', async () => {
    const o = await certify(ALL_SCENARIOS, [], 'all');
    const bad = o.results!.results.filter((r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'error'));
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

  test("a partner's client with the default scenarios and no --operator-product is certified", async () => {
    const cert = await startCertification({});
    try {
      const chosen = cert.runs.map((r) => r.scenario.id);
      expect(chosen).toEqual(['find-member-two-step', 'patient-create', 'patient-lifecycle', 'expired-token']);
      expect(chosen).toEqual(defaultScenarios(false));
      expect(defaultScenarios(true)).toEqual(ALL_SCENARIOS);
      await Promise.all(cert.runs.map((r) => new ReferenceClient(r.workspace.config).run()));
      await cert.wait(TIMEOUT_MS, 300);
      const o = await cert.finish({ reportDir: join(dir, 'partner-default'), timeoutMs: TIMEOUT_MS });
      const bad = o.results!.results.filter((r) => r.status === 'fail' || r.status === 'error');
      expect(bad.map((r) => `${r.test} ${r.check}: ${r.message}`)).toEqual([]);
      expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
      expect(o.results!.results.some((r) => r.check === 'client-avoids-reserved' && r.status === 'pass')).toBe(true);
    } finally {
      await cert.close();
    }
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
    ['caches-discovery', ['patient-lifecycle', 'batch-cycle']],
    ['reads-stored-patient', ['patient-lifecycle']],
    ['retrieves-stored-address', ['address-drill-down']],
    ['refreshes-token-early', ['find-member-two-step', 'register-paging']],
    ['pages-of-25', ['register-paging']],
    ['client-token-for-patients', ['patient-create', 'patient-lifecycle']],
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
        const bad = o.results!.results.filter(
          (r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'error'),
        );
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
                (x) =>
                  `${x.method} ${x.path ?? x.rawUrl} ${x.status} ${Object.keys(x.headers).sort()} ${x.path === '/oauth/token' ? new URLSearchParams(x.body).get('grant_type') : ''}`,
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
    expect([...new Set(CLIENT_FAULT_CASES.map((c) => c.fault))].sort()).toEqual(Object.keys(CLIENT_FAULTS).sort());
  });

  test('every testable client MUST row is proven by a client fault (faults --unproven --party client)', () => {
    expect(unprovenClientRows().map((r) => r.id)).toEqual([]);
    const client = new Set(loadRequirements('client').map((r) => r.id));
    expect(CLIENT_FAULT_CASES.flatMap((c) => c.rows.filter((id) => !client.has(id)))).toEqual([]);
  });

  test.concurrent.each(CLIENT_FAULT_CASES.map((c) => [`${c.fault} in ${c.scenario}`, c] as const))(
    '%s is caught by its check, citing its rows',
    async (_name, c) => {
      const o = await certify([c.scenario], [c.fault], `${c.scenario}-${c.check}`, c.external !== true);
      const caught = o.results!.results.filter(
        (r) =>
          r.check === c.check &&
          r.status === c.status &&
          r.level === (c.status === 'fail' ? 'MUST' : 'SHOULD') &&
          c.rows.some((id) => r.requirements.includes(id)),
      );
      // Every row of the case is cited by a result that caught it.
      expect(c.rows.filter((id) => !caught.some((r) => r.requirements.includes(id)))).toEqual([]);
      expect(
        caught.length,
        `${c.fault}: results ${o
          .results!.results.filter((r) => r.status !== 'pass' && r.status !== 'skip')
          .map((r) => `${r.check}=${r.level}/${r.status} [${r.requirements}] ${r.message}`)
          .join('; ')}`,
      ).toBeGreaterThan(0);
      if (c.status === 'fail') expect([o.exitCode, o.results?.verdict]).toEqual([1, 'not-conformant']);
      // Advice is said to the client, never as a change of an API operation or a server run's setting.
      const advice = findingsOf(o.results!).map((f) => f.change);
      expect(advice.filter((a) => /http\.timeoutMs|^Change (?!your client)/.test(a))).toEqual([]);
      expect(serverAdviceIn(o.reports!.resultsJson)).toEqual([]);
    },
  );

  test('a client alone in the malformed-answer scenario that stops is certified: the unreached flows are left out by its choice', async () => {
    const cert = await startCertification({ scenarios: ['malformed-answer'] });
    try {
      await new ReferenceClient(cert.runs[0].workspace.config).run();
      await cert.wait(TIMEOUT_MS, 300);
      const o = await cert.finish({
        reportDir: join(dir, 'malformed-alone'),
        timeoutMs: TIMEOUT_MS,
        operatorProduct: true,
      });
      expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
      const left = o.results!.results.filter((r) => r.check === 'scenario-flow-reached');
      expect(left.map((r) => [r.status, r.requirements])).toEqual([
        ['omit', ['D1-4.7-04']],
        ['omit', ['D1-4.8-04']],
      ]);
      expect(o.results!.coverage?.overall.leftOut).toEqual({ 'the client stopped where the documents allow': 2 });
    } finally {
      await cert.close();
    }
  });

  test('a plain OPTIONS at a discovered address is at a discovered address, though of no operation', async () => {
    const cert = await startCertification({ scenarios: ['token-revoke-and-logout'] });
    try {
      const { discovery } = cert.runs[0].workspace.config;
      const auth = (await (await fetch(discovery.auth)).json()) as { auth_url: string };
      await (await fetch(`${auth.auth_url}/logout`, { method: 'OPTIONS' })).text();
      const o = await cert.finish({ reportDir: join(dir, 'plain-options'), timeoutMs: 100 });
      const address = o.results!.results.filter(
        (r) =>
          r.check === 'client-uses-discovered-address' && o.results!.exchanges[r.exchange ?? -1]?.method === 'OPTIONS',
      );
      expect(address.map((r) => [r.status, r.message])).toEqual([
        [
          'pass',
          expect.stringMatching(
            /^OPTIONS \S+\/logout is at a discovered address \(no operation is sent there with OPTIONS/,
          ),
        ],
      ]);
    } finally {
      await cert.close();
    }
  });

  test('the coverage CSV never shows a row passed whose flow check was skipped', async () => {
    // A client whose search finds one member at once: D1-4.2-15's fields are judged on the request,
    // its flow (the refinement after MULTIPLE_MATCH_FOUND) never arises.
    const cert = await startCertification({ scenarios: ['find-member-two-step'] });
    try {
      const c = cert.runs[0].workspace.config;
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const grant = { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret };
      const token = (await (
        await fetch(c.tokenUrl, { method: 'POST', headers: form, body: new URLSearchParams(grant) })
      ).json()) as { access_token: string };
      const doc = (await (await fetch(c.discovery.membership)).json()) as { find_member_endpoint: string };
      const single = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
      const answer = await fetch(doc.find_member_endpoint, {
        method: 'POST',
        headers: {
          ...form,
          authorization: `Bearer ${token.access_token}`,
          'su-siteid': c.siteId,
          'svc-api-version': '2',
        },
        body: new URLSearchParams(single),
      });
      expect(answer.status).toBe(200);
      await cert.wait(TIMEOUT_MS, 300);
      const o = await cert.finish({ reportDir: join(dir, 'csv-flow'), timeoutMs: TIMEOUT_MS });
      const byId = (id: string) => o.results!.results.filter((r) => r.requirements.includes(id));
      expect(
        byId('D1-4.2-15')
          .map((r) => `${r.check}:${r.status}`)
          .sort(),
      ).toEqual(['client-refines-after-multiple-match:skip', 'client-sends-documented-parameters:pass']);
      const csv = readFileSync(o.reports!.coverageCsv, 'utf8');
      const row = csv.split('\n').find((l) => l.startsWith('"D1-4.2-15"'));
      expect(row).toMatch(/^"D1-4.2-15","D1","4.2","MUST","find-member-v2","skip",/);
      expect(row).toContain('Its flow was not judged (client-refines-after-multiple-match');
    } finally {
      await cert.close();
    }
  });

  test('a completed scenario stays open a grace period: the wait ends only once the client has been quiet', async () => {
    const cert = await startCertification({ scenarios: ['patient-create'] });
    try {
      await new ReferenceClient(cert.runs[0].workspace.config).run();
      await cert.wait(60_000, 400);
      const last = Date.parse(cert.runs[0].workspace.exchanges.at(-1)!.at);
      expect(Date.now() - last).toBeGreaterThanOrEqual(400);
      expect(cert.runs[0].ending).toBe('completed');
    } finally {
      await cert.close();
    }
  });

  test('a client that does nothing leaves the certification inconclusive', async () => {
    const cert = await startCertification({ scenarios: ['batch-cycle'] });
    try {
      await cert.wait(500, 100);
      const o = await cert.finish({ reportDir: join(dir, 'idle'), timeoutMs: 500 });
      expect([o.exitCode, o.results?.verdict]).toEqual([3, 'inconclusive']);
      expect(o.results!.results.find((r) => r.check === 'scenario-completed')?.message).toMatch(
        /within 1 s, received 0 request\(s\) and no end: your client never made an acknowledgement/,
      );
      expect(serverAdviceIn(o.reports!.resultsJson)).toEqual([]);
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
