/**
 * The catalogue and the sandbox's state endpoint agree: every state is implemented, answers the
 * values it promises, and gives the data back after an interaction changed it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestSandbox, paths } from '../server/testSupport.ts';
import { SANDBOX_STATE_VALUES } from '../server/providerStates.ts';
import { operations } from '../spec/operations.ts';
import { PROVIDER_STATES, stateExamples, stateFromFixtures } from './providerStates.ts';

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
