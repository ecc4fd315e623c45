/**
 * The remittance batch cycle (Document 1, 3 and 4.6-4.8; DEC-D1-11) as a state machine: the
 * token site's pending batches are listed (4.6), each can be read (4.7) and acknowledged (4.8);
 * an acknowledged batch is receipted, no longer listed, and reading or acknowledging it again is
 * `InvalidId` (its status is not shown: any 4xx).
 * Model: the site's pending ids (observed at the start of the sequence) and the ids acknowledged.
 */
import fc from 'fast-check';
import {
  bundleResources,
  command,
  expectRefused,
  expectSuccess,
  isRecord,
  listAllPages,
  ModelMismatch,
  type MachineReal,
  type MachineRequest,
  type StateMachine,
} from './stateMachineRunner.ts';

export interface BatchCycleModel {
  pending: string[];
  acknowledged: string[];
}

export interface BatchCycleFixtures {
  /** An id of another site's pending batch: an unknown id for the caller (DEC-D1-11). */
  foreignBatchId?: string;
}

const LIST = '/claims/claimresponse/$batch';
const one = (id: string) => `${LIST}/${encodeURIComponent(id)}`;
const CLIENT: MachineRequest = { credential: 'client', headers: { accept: 'application/fhir+json' } };
const INVALID_ID = ['InvalidId'];

type Pick = 'pending' | 'acknowledged' | 'unknown';
const pickArb = fc.constantFrom<Pick>('pending', 'acknowledged', 'unknown');

/** The id a command names: a pending or an acknowledged one of the model, or one the target never had. */
function idOf(m: Readonly<BatchCycleModel>, pick: Pick, n: number, fixtures: BatchCycleFixtures): string {
  if (pick === 'pending') return m.pending[n % m.pending.length];
  if (pick === 'acknowledged') return m.acknowledged[n % m.acknowledged.length];
  return n % 2 === 1 && fixtures.foreignBatchId ? fixtures.foreignBatchId : `SM-NO-BATCH-${n % 5}`;
}

const available = (m: Readonly<BatchCycleModel>, pick: Pick) =>
  pick === 'pending' ? m.pending.length > 0 : pick === 'acknowledged' ? m.acknowledged.length > 0 : true;

async function pendingIds(real: MachineReal): Promise<string[]> {
  const resources = await listAllPages(real, 'list pending remittances', LIST, CLIENT, 'maxRecords');
  return resources.map((r) => String(r.id));
}

export function batchCycleMachine(fixtures: BatchCycleFixtures = {}): StateMachine<BatchCycleModel> {
  const list = fc.constant(
    command<BatchCycleModel>(
      'list',
      () => true,
      async (m, real) => {
        const listed = await pendingIds(real);
        const missing = m.pending.filter((id) => !listed.includes(id));
        if (missing.length > 0)
          throw new ModelMismatch(
            `Expected pending ${missing.join(' ')} listed, received ${listed.join(' ') || 'none'}`,
          );
        const back = m.acknowledged.filter((id) => listed.includes(id));
        if (back.length > 0)
          throw new ModelMismatch(
            `Expected acknowledged ${back.join(' ')} gone from the pending list, received it listed`,
          );
        const twice = listed.filter((id, k) => listed.indexOf(id) !== k);
        if (twice.length > 0)
          throw new ModelMismatch(`Expected each batch listed once, received ${twice.join(' ')} again`);
      },
    ),
  );
  const get = fc.tuple(pickArb, fc.nat(20)).map(([pick, n]) =>
    command<BatchCycleModel>(
      `get ${pick}[${n}]`,
      (m) => available(m, pick),
      async (m, real) => {
        const id = idOf(m, pick, n, fixtures);
        real.trace.push(`  (id ${id})`);
        const a = await real.call('GET', one(id), CLIENT);
        if (pick !== 'pending') return expectRefused(`get of ${pick} batch ${id}`, a, INVALID_ID);
        expectSuccess(`get of pending batch ${id}`, a);
        if (!isRecord(a.json) || bundleResources(a.json).length > 0 || Object.keys(a.json).length === 0)
          throw new ModelMismatch(`Expected the batch object of ${id}, received ${a.text?.slice(0, 80) ?? 'no body'}`);
      },
    ),
  );
  const ack = fc.tuple(pickArb, fc.nat(20)).map(([pick, n]) =>
    command<BatchCycleModel>(
      `ack ${pick}[${n}]`,
      (m) => available(m, pick),
      async (m, real) => {
        const id = idOf(m, pick, n, fixtures);
        real.trace.push(`  (id ${id})`);
        const a = await real.call('DELETE', one(id), CLIENT);
        if (pick !== 'pending') return expectRefused(`acknowledgement of ${pick} batch ${id}`, a, INVALID_ID);
        expectSuccess(`acknowledgement of pending batch ${id}`, a);
        m.pending = m.pending.filter((p) => p !== id);
        m.acknowledged = [...m.acknowledged, id];
      },
    ),
  );
  return {
    name: 'batch-cycle',
    setup: async (real) => ({ pending: await pendingIds(real), acknowledged: [] }),
    commands: [list, get, ack],
  };
}
