/**
 * `pact check` part (c) and what a partner's pact may choose (issue 31, item 4): real Pact
 * verification against the real sandbox over HTTP (127.0.0.1, a free port), no mock of our own.
 * - Provider-state params reach the sandbox's data; a state or params it does not know leave the
 *   interaction not verified (skip, with the reason), never failed.
 * - A path under a gateway base is the operation whose discovery-key address ends it (D1 1); a
 *   path at no operation's address is reported.
 * - The patients' version under another header name passes (D3 4.4, DEC-C-03).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunOutcome } from '../../app/runConformance.ts';
import type { CheckResult } from '../../core/results.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../../server/demoConfig.ts';
import { startSandbox } from '../../server/http.ts';
import { stricterThanCited } from '../../test/support/levels.ts';
import { generateReferencePacts } from '../generate.ts';
import { verifyInChild } from '../verifyInChild.ts';
import { checkPartnerPactAgainstSandbox } from './againstSandbox.ts';
import { checkPartnerPact } from './checkPartnerPact.ts';
import { NO_OPERATION } from './judgeInteractions.ts';

/** A pact file's JSON, edited freely here. */
type Json = Record<string, any>;

const NOT_VERIFIED = ' the interaction was not verified';
const TEA = 'Provider state "a patient who likes tea" with params {"patient_id":"PAT-9999"}';

let dir: string;
/** Every reference interaction, by description. */
const reference = new Map<string, Json>();
let patientsPact: Json;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pact-check-sandbox-'));
  for (const f of await generateReferencePacts(join(dir, 'reference'))) {
    const pact = JSON.parse(readFileSync(f, 'utf8')) as Json;
    if (f.endsWith('-patients.json')) patientsPact = pact;
    for (const i of pact.interactions) reference.set(i.description, i);
  }
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function pactFile(interactions: Json[]): string {
  const f = join(dir, `partner-${n++}.json`);
  const pact = {
    consumer: { name: 'partner' },
    provider: { name: 'api-family' },
    metadata: { pactSpecification: { version: '3.0.0' } },
    interactions,
  };
  writeFileSync(f, JSON.stringify(pact));
  return f;
}

/** A copy of a reference interaction, renamed, without its provider-state generators (a partner's literal values). */
function copy(description: string, as: string, literal = true): Json {
  const i = structuredClone(reference.get(description)) as Json;
  expect(i, description).toBeDefined();
  if (literal) delete i.request.generators;
  return { ...i, description: as };
}

const verified = (o: RunOutcome): CheckResult[] =>
  (o.results?.results ?? []).filter((r) => r.check === 'pact-interaction-verified');
const byTest = (o: RunOutcome, name: string) => verified(o).find((r) => r.test?.endsWith(`: ${name}`));
const failures = (o: RunOutcome) =>
  (o.results?.results ?? []).filter((r) => r.status === 'fail' || r.status === 'error');

describe('provider states with the pact own params', () => {
  test("a patient, a batch and a member of the pact's own are arranged in the sandbox and verified", {
    timeout: 180_000,
  }, async () => {
    const patient = copy('get-patient: success given a patient exists', 'a patient of our own');
    patient.providerStates = [{ name: 'a patient exists', params: { patient_id: 'PAT-4242' } }];
    patient.request.path = '/patients/patient/PAT-4242';
    // The answer must be that patient: its id compared by equality.
    patient.response.body.id = 'PAT-4242';
    delete patient.response.matchingRules.body['$.id'];
    // Pact injects the params where the pact says fromProviderState (here the path).
    const injected = copy('get-patient: success given a patient exists', 'a patient injected', false);
    injected.providerStates = [{ name: 'a patient exists', params: { patient_id: 'PAT-5151' } }];
    injected.response.body.id = 'PAT-5151';
    delete injected.response.matchingRules.body['$.id'];
    const batch = copy('get-remittance-details: success given a pending remittance batch', 'a batch of our own');
    batch.providerStates = [{ name: 'a pending remittance batch', params: { id: 'BATCH-7777' } }];
    batch.request.path = '/claims/claimresponse/$batch/BATCH-7777';
    const member = copy('find-member-v2: success given a member who matches once', 'a member of our own');
    const fields = { insurerIdentifier: 'ppp', firstInitial: 'K', lastName: 'Okafor', dateOfBirth: '1990-01-31' };
    member.providerStates = [{ name: 'a member who matches once', params: fields }];
    member.request.body = new URLSearchParams(Object.entries(fields).sort()).toString();

    const o = await checkPartnerPactAgainstSandbox({
      pactFile: pactFile([patient, injected, batch, member]),
      reportDir: join(dir, 'report-params'),
      operatorProduct: true,
    });
    expect(failures(o).map((r) => `${r.test} ${r.check}: ${r.message}`)).toEqual([]);
    expect(Object.fromEntries(verified(o).map((r) => [r.test?.split(': ')[1], r.status]))).toEqual({
      'a patient of our own': 'pass',
      'a patient injected': 'pass',
      'a batch of our own': 'pass',
      'a member of our own': 'pass',
    });
    expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
  });

  test('a state or params unknown to the sandbox leave the interaction not verified, never failed', {
    timeout: 180_000,
  }, async () => {
    const stranger = copy('get-patient: success given a patient exists', 'an unknown state');
    stranger.providerStates = [{ name: 'a patient who likes tea', params: { patient_id: 'PAT-9999' } }];
    // Run against the sandbox's data, this request would be answered 404: it must not be.
    stranger.request.path = '/patients/patient/PAT-9999';
    const oddParams = copy('get-patient: success given a patient exists', 'unknown params');
    oddParams.providerStates = [{ name: 'a patient exists', params: { nhsNumber: '9434765919' } }];
    oddParams.request.path = '/patients/patient/PAT-9999';
    const bill = copy('get-bill: success given a bill exists', 'a bill the sandbox cannot arrange');
    bill.providerStates = [{ name: 'a bill exists', params: { claimId: 'BILL-9999', isArchived: 'false' } }];
    bill.request.path = '/claims/claim/BILL-9999/false';
    const known = copy('get-patient: success given a patient exists', 'a known state', false);

    const o = await checkPartnerPactAgainstSandbox({
      pactFile: pactFile([stranger, oddParams, bill, known]),
      reportDir: join(dir, 'report-unknown'),
      operatorProduct: true,
    });
    expect(failures(o).map((r) => `${r.test} ${r.check}: ${r.message}`)).toEqual([]);
    expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
    const outcome = (name: string) => [byTest(o, name)?.status, byTest(o, name)?.message];
    expect(outcome('an unknown state')).toEqual(['skip', `${TEA} is unknown to the sandbox:${NOT_VERIFIED}`]);
    expect(outcome('unknown params')).toEqual([
      'skip',
      'Provider state "a patient exists" with params {"nhsNumber":"9434765919"} is unknown to the sandbox ' +
        `(the state takes patient_id):${NOT_VERIFIED}`,
    ]);
    expect(outcome('a bill the sandbox cannot arrange')).toEqual([
      'skip',
      'Provider state "a bill exists" with params {"claimId":"BILL-9999","isArchived":"false"} cannot be ' +
        `arranged by the sandbox (it holds this state's data for {"claimId":"BILL-0001","isArchived":"false"} only):` +
        NOT_VERIFIED,
    ]);
    expect(byTest(o, 'a known state')?.status).toBe('pass');
  });

  test("a state the target's endpoint refuses (pact verify) is not verified, with the endpoint's reason", {
    timeout: 180_000,
  }, async () => {
    const stranger = copy('get-patient: success given a patient exists', 'an unknown state');
    stranger.providerStates = [{ name: 'a patient who likes tea', params: { patient_id: 'PAT-9999' } }];
    stranger.request.path = '/patients/patient/PAT-9999';
    const known = copy('get-patient: success given a patient exists', 'a known state', false);
    const sandbox = await startSandbox();
    try {
      const v = await verifyInChild({
        target: sandbox.url,
        pactFiles: [pactFile([stranger, known])],
        config: DEMO_CONFIG_FILE,
        environmentFallbacks: DEMO_ENVIRONMENT,
        stateSource: 'endpoint',
      });
      if ('problem' in v) throw new Error(v.problem);
      const of = (name: string) => v.results.find((r) => r.test?.endsWith(`: ${name}`));
      expect([of('an unknown state')?.status, of('an unknown state')?.message]).toEqual([
        'skip',
        `${TEA} is unknown to the target (HTTP 400 from the state endpoint: ` +
          `Expected a state of the catalogue, received a patient who likes tea):${NOT_VERIFIED}`,
      ]);
      expect(of('a known state')?.status).toBe('pass');
    } finally {
      await sandbox.close();
    }
  });
});

describe('paths matched by discovery key', () => {
  test('a path under a gateway base is compared, judged and verified as its operation; an unknown path is reported', {
    timeout: 180_000,
  }, async () => {
    const find = copy('find-member-v2: success given a member who matches once', 'find member via the gateway', false);
    find.request.path = '/api/v2/membership/find-member';
    const batch = copy('get-remittance-details: success given a pending remittance batch', 'a batch via the gateway');
    batch.request.path = '/gateway/claims/claimresponse/$batch/BATCH-1001';
    const stray = copy('find-member-v2: success given a member who matches once', 'a stray path');
    stray.request.path = '/api/v2/membership/member-search';

    const o = await checkPartnerPactAgainstSandbox({
      pactFile: pactFile([find, batch, stray]),
      reportDir: join(dir, 'report-gateway'),
      operatorProduct: true,
    });
    const results = o.results?.results ?? [];
    const request = (name: string) =>
      results.find(
        (r) => r.test?.endsWith(`: ${name}`) && r.check === 'agrees-with-open-api' && /request/.test(r.summary),
      );
    expect([request('find member via the gateway')?.operation, request('find member via the gateway')?.status]).toEqual(
      ['find-member-v2', 'pass'],
    );
    expect(request('find member via the gateway')?.message).toContain(
      'request.path.base-prefix: The path carries /api/v2 before the address of find-member-v2 ' +
        '(key find_member_endpoint)',
    );
    expect(request('a batch via the gateway')?.operation).toBe('get-remittance-details');
    expect(request('a batch via the gateway')?.status).toBe('pass');
    expect(byTest(o, 'find member via the gateway')?.status).toBe('pass');
    expect(byTest(o, 'a batch via the gateway')?.status).toBe('pass');
    // The path at no operation's address: (a) fails it at MUST, as before; (c) says it was not verified.
    expect(failures(o).map((r) => [r.test?.split(': ')[1], r.operation, r.check, r.level])).toEqual([
      ['a stray path', NO_OPERATION, 'agrees-with-open-api', 'MUST'],
    ]);
    expect(failures(o)[0].message).toMatch(/request\.path-or-method\.unknown.*\/api\/v2\/membership\/member-search/);
    expect([byTest(o, 'a stray path')?.operation, byTest(o, 'a stray path')?.status]).toEqual([NO_OPERATION, 'skip']);
    expect(byTest(o, 'a stray path')?.message).toBe(
      "Not verified: POST /api/v2/membership/member-search is at no operation's address " +
        "(no discovery key's address ends the path, after any base)",
    );
    expect([o.exitCode, o.results?.verdict]).toEqual([1, 'not-conformant']);
  });
});

describe("the patients' version header under another name (DEC-C-03)", () => {
  const renamed = (header: string | undefined, value = '1') => ({
    ...patientsPact,
    interactions: patientsPact.interactions.map((i: Json) => {
      const { 'SVC-API-Version': _version, ...headers } = i.request.headers;
      return { ...i, request: { ...i.request, headers: header ? { ...headers, [header]: value } : headers } };
    }),
  });

  test('the reference patients pact with Version-Id: 1 passes pact check, the name noted at INFO', {
    timeout: 180_000,
  }, async () => {
    const pact = renamed('Version-Id');
    const o = await checkPartnerPactAgainstSandbox({
      pactFile: pactFile(pact.interactions),
      reportDir: join(dir, 'report-version-id'),
    });
    expect(failures(o).map((r) => `${r.test} ${r.check}: ${r.message}`)).toEqual([]);
    expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
    expect(verified(o).map((r) => r.status)).toEqual(Array(pact.interactions.length).fill('pass'));
    const results = o.results?.results ?? [];
    const info = results.filter((r) => r.check === 'client-sends-header' && r.summary.includes('SVC-API-Version'));
    expect(info.length).toBe(pact.interactions.length);
    for (const r of info) {
      expect([r.level, r.status]).toEqual(['INFO', 'warn']);
      expect(r.message).toContain(
        "The patients' version is sent as Version-Id: 1, a header name the documents leave open " +
          '(D3 4.4: "The name of the version-id header: not shown."); read as SVC-API-Version (DEC-C-03)',
      );
    }
    const compared = results.filter((r) => r.check === 'agrees-with-open-api' && /request/.test(r.summary));
    for (const r of compared) expect([r.status, r.message]).toEqual(['pass', expect.stringContaining('Version-Id: 1')]);
    expect(stricterThanCited(o.results!)).toEqual([]);
  });

  test('no version header at all, or another version under the other name, still fails (a)', async () => {
    for (const [name, pact, why] of [
      ['none', renamed(undefined), /must have required property 'SVC-API-Version'/],
      ['X-API-Version: 2', renamed('X-API-Version', '2'), /must be equal to constant \("2"\)/],
    ] as const) {
      const create = pact.interactions.filter((i: Json) => i.description.startsWith('create-patient'));
      const o = await checkPartnerPact({ pactFile: pactFile(create), reportDir: join(dir, `report-${n}`) });
      expect(
        failures(o).map((r) => r.check),
        name,
      ).toEqual(['agrees-with-open-api']);
      expect(failures(o)[0].message, name).toMatch(why);
      expect(o.exitCode, name).toBe(1);
    }
  });
});
