/**
 * The catalogue and the sandbox's state endpoint agree: every state is implemented, answers the
 * values it promises, and gives the data back after an interaction changed it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestSandbox, paths } from '../server/testSupport.ts';
import { SANDBOX_STATE_VALUES } from '../server/providerStates.ts';
import { operations } from '../spec/operations.ts';
import { SEED } from '../server/fixtures/seed.ts';
import { arrangeStates, PROVIDER_STATES, stateExamples, stateFromFixtures } from './providerStates.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const change = (body: unknown) =>
  sb.request('POST', '/_pact/provider-states', {
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('provider-state catalogue', () => {
  test('names are unique, every operation has a state, every parameter names a parameter of its operations', () => {
    expect(new Set(PROVIDER_STATES.map((s) => s.name)).size).toBe(PROVIDER_STATES.length);
    const used = new Set(PROVIDER_STATES.flatMap((s) => s.operations));
    expect([...used].sort()).toEqual(operations.map((o) => o.id).sort());
    for (const s of PROVIDER_STATES)
      for (const p of s.params)
        expect(
          s.operations.some((id) => operations.find((o) => o.id === id)?.parameters.some((x) => x.name === p.name)),
          `${s.name}: ${p.name}`,
        ).toBe(true);
  });

  test('the sandbox implements exactly the catalogue', () => {
    expect(Object.keys(SANDBOX_STATE_VALUES).sort()).toEqual(PROVIDER_STATES.map((s) => s.name).sort());
  });

  test.each(PROVIDER_STATES.map((s) => [s.name, s] as const))(
    'setup of "%s" answers the values it promises',
    async (_n, s) => {
      const a = await change({ state: s.name, params: stateExamples(s), action: 'setup' });
      expect(a.status).toBe(200);
      expect(a.json).toEqual(stateExamples(s));
      expect((await change({ state: s.name, params: {}, action: 'teardown' })).status).toBe(200);
    },
  );

  test('the demo config fixtures give each state with fixtures the sandbox values', async () => {
    const { loadConfig } = await import('../core/config.ts');
    const { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } = await import('../server/demoConfig.ts');
    const config = loadConfig({ file: DEMO_CONFIG_FILE, target: sb.url, fallbacks: DEMO_ENVIRONMENT });
    for (const s of PROVIDER_STATES) {
      const arranged = stateFromFixtures(s, config);
      if ('values' in arranged) expect(arranged.values, s.name).toEqual(stateExamples(s));
      else expect(arranged.missing, s.name).toMatch(/no fixture names/);
    }
  });

  test('an acknowledged batch and a deleted patient are back after their state is set up again', async () => {
    expect((await sb.delete(paths.batch('BATCH-1001'))).status).toBe(200);
    expect((await sb.get(paths.batch('BATCH-1001'))).status).not.toBe(200);
    await change({ state: 'a pending remittance batch', params: { id: 'BATCH-1001' }, action: 'setup' });
    expect((await sb.get(paths.batch('BATCH-1001'))).status).toBe(200);

    expect((await sb.patient('DELETE', paths.patient('PAT-0001'))).status).toBeLessThan(300);
    expect((await sb.patient('GET', paths.patient('PAT-0001'))).status).toBe(404);
    await change({ state: 'a patient exists', params: {}, action: 'setup' });
    const back = await sb.patient('GET', paths.patient('PAT-0001'));
    expect(back.status).toBe(200);
    expect((back.json as { id: string }).id).toBe('PAT-0001');
    // Tokens survive the reset: the same user token still works.
    expect((await sb.accounts(paths.features)).status).toBe(200);
  });

  test('an unknown state, a malformed body and an unknown action are 400 with a one-line error', async () => {
    for (const body of [
      { state: 'no such state', action: 'setup' },
      'not json',
      { state: 'insurers exist', action: 'undo' },
    ]) {
      const a = await change(body);
      expect(a.status).toBe(400);
      expect((a.json as { error: string }).error).toMatch(/^Expected /);
    }
  });
});

const NOT_VERIFIED = ' the interaction was not verified';

describe("states arranged with a partner pact's own params (pact check)", () => {
  test('the examples need nothing; other ids and member fields are copies of the example records', () => {
    const same = arrangeStates(
      SEED,
      PROVIDER_STATES.map((s) => ({ name: s.name, params: stateExamples(s) })),
    );
    expect(same).toEqual({ seed: SEED, unarranged: [] });

    const { seed, unarranged } = arrangeStates(SEED, [
      { name: 'a patient exists', params: { patient_id: 'PAT-4242' } },
      { name: 'a patient exists', params: { patient_id: 'PAT-4242' } },
      { name: 'an inactive patient', params: { patient_id: 'PAT-0001' } },
      { name: 'a condition exists', params: { condition_id: 'COND-7' } },
      { name: 'a pending remittance batch', params: { id: 'BATCH-7777' } },
      { name: 'a member who matches once', params: { firstInitial: 'k', lastName: 'Okafor' } },
      { name: 'a member who matches once by membership number', params: { membershipNumber: 'BUP-42' } },
    ]);
    expect(unarranged).toEqual([]);
    const patient = (id: string) => seed.patients.filter((p) => p.resource.id === id);
    expect(patient('PAT-4242').map((p) => [p.siteId, p.resource.active])).toEqual([['SITE001', true]]);
    // A state's id that names another record replaces it: PAT-0001 is now the inactive patient.
    expect(patient('PAT-0001').map((p) => p.resource.active)).toEqual([false]);
    expect(seed.conditions.some((c) => c.resource.id === 'COND-7')).toBe(true);
    expect(seed.batches.find((b) => b.id === 'BATCH-7777')?.siteId).toBe('SITE001');
    const okafor = seed.members.filter((m) => m.family === 'Okafor');
    expect(okafor.map((m) => [m.insurer, m.given.charAt(0), m.birthDate])).toEqual([['ppp', 'K', '1980-04-12']]);
    expect(seed.members.filter((m) => m.membershipNumber === 'BUP-42').map((m) => m.insurer)).toEqual(['bup']);
    // The sandbox's own seed is left as it was.
    expect(SEED.patients.some((p) => p.resource.id === 'PAT-4242')).toBe(false);
  });

  test('an unknown state, unknown params or values the sandbox cannot arrange are unarranged, with the reason', () => {
    const { seed, unarranged } = arrangeStates(SEED, [
      { name: 'a patient who likes tea' },
      { name: 'insurers exist', params: { country: 'GB' } },
      { name: 'a patient exists', params: { patient_id: { nested: true } } },
      { name: 'a bill exists', params: { claimId: 'BILL-9' } },
    ]);
    expect(seed).toBe(SEED);
    expect(unarranged.map((u) => u.reason)).toEqual([
      `Provider state "a patient who likes tea" with params {} is unknown to the sandbox:${NOT_VERIFIED}`,
      'Provider state "insurers exist" with params {"country":"GB"} is unknown to the sandbox ' +
        '(the state takes no parameters):' +
        NOT_VERIFIED,
      'Provider state "a patient exists" with params {"patient_id":{"nested":true}} is unknown to the sandbox ' +
        '(the state takes patient_id):' +
        NOT_VERIFIED,
      'Provider state "a bill exists" with params {"claimId":"BILL-9"} cannot be arranged by the sandbox ' +
        '(it holds this state\'s data for {"claimId":"BILL-0001","isArchived":"false"} only):' +
        NOT_VERIFIED,
    ]);
  });
});
