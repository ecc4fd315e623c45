/** Every discovery fault changes the document it names, and only that, where the clean sandbox keeps the rule. */
import { expect } from 'vitest';
import type { ServiceId } from '../../../spec/types.ts';
import { DISCOVERY_PATHS } from '../../router/addresses.ts';
import { SERVED_OPERATIONS } from '../../router/operationTable.ts';
import type { TestSandbox } from '../../testSupport.ts';
import { DISCOVERY_ROW_FAULTS } from './discovery.ts';
import { describeRowFaults, type Scenario } from './scenarios.ts';

const SERVICES = Object.keys(DISCOVERY_PATHS) as ServiceId[];
const documentOf = async (s: TestSandbox, service: ServiceId) => {
  const a = await s.get(DISCOVERY_PATHS[service], { token: null, site: null });
  return { status: a.status, keys: a.json as Record<string, string> | undefined };
};

/** The service's document lacks `key` (its other keys as the clean one's); every other document is the clean one's. */
const lacksKey =
  (service: ServiceId, key: string): Scenario =>
  async (clean, faulty) => {
    for (const s of SERVICES) {
      const c = await documentOf(clean, s);
      const f = await documentOf(faulty, s);
      expect([c.status, f.status], s).toEqual([200, 200]);
      const expected = { ...c.keys };
      if (s === service) {
        expect(c.keys?.[key], s).toMatch(/^http/);
        delete expected[key];
      }
      // The addresses are absolute and name each sandbox's own port: compare the paths.
      const paths = (keys: Record<string, string> | undefined) =>
        Object.fromEntries(Object.entries(keys ?? {}).map(([k, v]) => [k, new URL(v).pathname]));
      expect(paths(f.keys), s).toEqual(paths(expected));
    }
  };

/** The service's document names `key` under `/v2` of its base, where the faulty sandbox answers 404; nothing else changes. */
const movesKey =
  (service: ServiceId, key: string): Scenario =>
  async (clean, faulty) => {
    const c = await documentOf(clean, service);
    const f = await documentOf(faulty, service);
    const path = (keys: Record<string, string> | undefined, k: string) => new URL(keys?.[k] ?? 'x:').pathname;
    expect(path(f.keys, key)).toBe(path(c.keys, key).replace(/^\/(claims|contracts)\//, '/$1/v2/'));
    expect(path(f.keys, key)).not.toBe(path(c.keys, key));
    for (const k of Object.keys(c.keys ?? {}).filter((x) => x !== key))
      expect(path(f.keys, k), k).toBe(path(c.keys, k));
    expect((await faulty.get(path(f.keys, key))).status).toBe(404);
  };

/** Nothing at the service's document address (404); every other document is served. */
const notPublished =
  (service: ServiceId): Scenario =>
  async (clean, faulty) => {
    const c = await documentOf(clean, service);
    expect(c.status).toBe(200);
    expect(Object.keys(c.keys ?? {})).toEqual(
      expect.arrayContaining(SERVED_OPERATIONS.filter((o) => o.service === service).map((o) => o.discoveryKey)),
    );
    expect((await documentOf(faulty, service)).status).toBe(404);
    for (const s of SERVICES.filter((x) => x !== service)) expect((await documentOf(faulty, s)).status, s).toBe(200);
  };

const SCENARIOS: Record<string, Scenario> = Object.fromEntries(
  DISCOVERY_ROW_FAULTS.map((f) => {
    const published = /^(\w+)-discovery-not-published$/.exec(f.name);
    if (published) return [f.name, notPublished(published[1] as ServiceId)];
    const op = SERVED_OPERATIONS.find((o) => o.id === f.operations[0]);
    if (!op) throw new Error(`${f.name}: no operation`);
    if (/-discovery-moves-/.test(f.name)) return [f.name, movesKey(op.service, op.discoveryKey)];
    return [f.name, lacksKey(op.service, op.discoveryKey)];
  }),
);

describeRowFaults('Discovery', DISCOVERY_ROW_FAULTS, SCENARIOS);
