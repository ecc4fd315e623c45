/**
 * The patient lifecycle (Document 3, 4.4; DEC-D3-07, DEC-D3-08) as a state machine: create a
 * patient (generated schema-valid bodies), read it, update it (the body carries the id) and read
 * it back (D3-4.4-12), delete it, after which reading it is refused (read back at once, D3-3-05);
 * add a condition to a patient (one that does not exist, never created or deleted, is refused:
 * D3 4.4 "the patient must already exist", D3-4.4-17) and delete it. A refusal is a 4xx carrying a
 * code of the patient table at that code's status: the table ties no code to these cases, so which
 * code (the SHOULD of DEC-D3-08) is the suite's to judge, not the machine's, which judges MUST only.
 * Requests about a deleted patient or condition whose answer the documents do not show (an
 * update, a second delete: DEC-D3-38) need only not be a 5xx.
 * Model: the live patients with the last data sent, the deleted ones, the conditions.
 */
import fc from 'fast-check';
import { errorCodesOf } from '../core/readers/errorCode.ts';
import { patientExtensionName } from '../core/readers/patientExtension.ts';
import { operation } from '../spec/operations.ts';
import type { JsonBody } from './bodyArbitrary.ts';
import { conditionBody, conditionFor, patientBody } from './patientBody.ts';
import {
  breaking,
  command,
  describeAnswer,
  expectNotServerError,
  expectSuccess,
  isRecord,
  ModelMismatch,
  type MachineAnswer,
  type MachineRequest,
  type StateMachine,
} from './stateMachineRunner.ts';

export interface PatientLifecycleModel {
  /** Live patient id -> the last body sent for it. */
  live: Map<string, JsonBody>;
  deleted: string[];
  /** Live condition id -> its patient. */
  conditions: Map<string, string>;
  /** Conditions deleted, or whose patient was deleted (their fate is not documented). */
  goneConditions: string[];
  /** Conditions whose patient was deleted: either answer to their delete is accepted. */
  orphaned: string[];
  /**
   * Live patients the target created inactive: the suite does not send `active` (the target's,
   * DEC-D3-33), and an inactive patient "cannot be updated" (3), so their updates must be refused.
   */
  inactive: Set<string>;
}

export interface PatientLifecycleFixtures {
  /** SU-SiteId of the patients (default SITE001). */
  siteId?: string;
  /** The target's {ref_url}: the documented Patient extensions end /extension/patient/<name> (D3 2.4). */
  refUrl?: string;
}

/**
 * The patient table of D3 7 ("Patient create, get, condition operations"): the same for get
 * patient and add condition (spec/operationsD3.ts).
 */
const PATIENT_TABLE = operation('get-patient').errors.filter((e) => e.code !== '');
const TABLE_TEXT = PATIENT_TABLE.map((e) => `${e.status} ${e.code}`).join(', ');

/**
 * Fails unless the answer refuses the request with a 4xx carrying a code of the patient table at
 * that code's status (DEC-D3-08: the rule is MUST, which code is not), the code read as every
 * check reads it (core/readers/errorCode.ts).
 */
export function expectTableRefusal(what: string, a: MachineAnswer): void {
  const codes = errorCodesOf(a.json, a.text);
  if (PATIENT_TABLE.some((e) => e.status === a.status && codes.includes(e.code))) return;
  throw new ModelMismatch(
    `Expected ${what} to be refused with a 4xx carrying a code of the patient table at its status (${TABLE_TEXT}), received ${describeAnswer(a)}`,
  );
}

type Pick = 'live' | 'deleted' | 'unknown';
const patientPath = (id: string) => `/patients/patient/${encodeURIComponent(id)}`;
// Deleted patients are where the documented state shows (DEC-D3-08): picked twice as often.
const pickArb = fc.constantFrom<Pick>('live', 'deleted', 'deleted', 'unknown');

function patientIdOf(m: Readonly<PatientLifecycleModel>, pick: Pick, n: number): string {
  if (pick === 'live') {
    const ids = [...m.live.keys()];
    return ids[n % ids.length];
  }
  if (pick === 'deleted') return m.deleted[n % m.deleted.length];
  return `SM-NO-PATIENT-${n % 5}`;
}

const available = (m: Readonly<PatientLifecycleModel>, pick: Pick) =>
  pick === 'live' ? m.live.size > 0 : pick === 'deleted' ? m.deleted.length > 0 : true;

const brief = (body: unknown) => {
  const text = JSON.stringify(body);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
};

/** A sent value worth comparing: a non-empty string (whether a server keeps an empty one is open, DEC-D3-64). */
const filled = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * The one item of a 0-1 member that was sent as a list (name, address, a telecom system, an
 * extension url), or undefined when several were sent: which one a server keeps is open (DEC-D3-32).
 */
function single<T>(items: readonly T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter(filled) : []);
const show = (v: unknown) => JSON.stringify(v) ?? 'undefined';

/** The sent item's filled members (and its single-item lists) equal the returned item's. */
function holds(sent: Record<string, unknown>, got: Record<string, unknown>, members: readonly string[]): boolean {
  return members.every((m) => {
    if (filled(sent[m])) return got[m] === sent[m];
    const list = texts(sent[m]);
    if (list.length === 0) return true;
    // DEC-D3-32: first name and title are 0-1; a list of several is compared only as a whole when sent alone.
    return JSON.stringify(texts(got[m])) === JSON.stringify(list);
  });
}

/** The members of 2.4 compared in a read-back, and the item members compared (as checks/patientRoundTrip.ts). */
const ITEM_MEMBERS = {
  name: ['family', 'given', 'prefix'],
  telecom: ['system', 'value', 'use'],
  address: ['type', 'text', 'line', 'city', 'postalCode'],
} as const;

/** The extension's name: its url after `/extension/patient/` (the prefix is the target's, DEC-D3-30). */
const extensionName = (e: Record<string, unknown>) => patientExtensionName(e.url);

/**
 * Where the returned Patient differs from the last body sent (DEC-D3-33: every member sent comes
 * back with the same value), or undefined. Compared by meaning and only where the documents fix
 * it: `gender` and the birth date (under either name, DEC-D3-31); the one `name`, `address`,
 * telecom per `system` and extension per url that was sent (DEC-D3-32), found among the returned
 * items in any order. Members the server owns or may add (`id`, `meta`, `text`, `active`,
 * `deceasedBoolean`, item ids) and empty values are not judged.
 */
export function readBackDifference(sent: JsonBody, got: unknown): string | undefined {
  if (!isRecord(got)) return 'no Patient';
  if (filled(sent.gender) && got.gender !== sent.gender) return `gender ${show(got.gender)} for ${show(sent.gender)}`;
  const born = got.birthDate ?? got.birthdate;
  if (filled(sent.birthDate) && born !== sent.birthDate) return `birth date ${show(born)} for ${show(sent.birthDate)}`;
  for (const [member, members] of Object.entries(ITEM_MEMBERS)) {
    const sentItems = records(sent[member]);
    // One telecom per system (DEC-D3-32); one name and one address.
    const groups =
      member === 'telecom'
        ? [...new Set(sentItems.map((t) => t.system))].map((sys) => sentItems.filter((t) => t.system === sys))
        : [sentItems];
    for (const group of groups) {
      const item = single(group);
      if (item === undefined || !members.some((m) => filled(item[m]) || texts(item[m]).length > 0)) continue;
      if (!records(got[member]).some((g) => holds(item, g, members)))
        return `${member} without ${show(item)} (received ${show(got[member])})`;
    }
  }
  const sentExtensions = records(sent.extension);
  for (const name of new Set(sentExtensions.map(extensionName))) {
    const item = single(sentExtensions.filter((e) => extensionName(e) === name));
    if (name === undefined || item === undefined || !filled(item.valueString)) continue;
    const back = records(got.extension).filter((e) => extensionName(e) === name);
    if (!back.some((e) => e.valueString === item.valueString))
      return `extension ${name} ${show(back.map((e) => e.valueString))} for ${show(item.valueString)}`;
  }
  return undefined;
}

/** The read Patient is the one asked for and holds the last body sent, or what differs. */
function sameAsSent(id: string, sent: JsonBody, got: unknown): string | undefined {
  if (!isRecord(got) || got.id !== id) return `id ${show(isRecord(got) ? got.id : undefined)}`;
  return readBackDifference(sent, got);
}

export function patientLifecycleMachine(fixtures: PatientLifecycleFixtures = {}): StateMachine<PatientLifecycleModel> {
  const site = fixtures.siteId ?? 'SITE001';
  const refUrl = fixtures.refUrl ?? 'https://sandbox.example/ref';
  const init = (body?: unknown): MachineRequest => ({
    credential: 'user',
    headers: { 'su-siteid': site, 'svc-api-version': '1', 'content-type': 'application/fhir+json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // The documented extensions only (D3 2.4; DEC-D3-63 leaves another one open), no `active` (the
  // target's, DEC-D3-33: a patient created inactive is kept in `inactive`) and the decisions'
  // choices (generators/patientBody.ts).
  const patientBodies = patientBody(refUrl);
  // Non-empty text (DEC-D3-64: whether an empty one is missing is open; the machine judges state).
  const conditions = conditionBody();

  const createCommand = (body: JsonBody) =>
    command<PatientLifecycleModel>(
      `create patient ${brief(body)}`,
      () => true,
      (m, real) =>
        breaking('D3-4.4-04', async () => {
          const a = await real.call('POST', '/patients/patient', init(body));
          expectSuccess('create patient', a);
          const id = isRecord(a.json) ? a.json.id : undefined;
          if (typeof id !== 'string' || id === '')
            throw new ModelMismatch(`Expected the created Patient with an id, received ${a.text?.slice(0, 80)}`);
          if (m.live.has(id) || m.deleted.includes(id))
            throw new ModelMismatch(`Expected a new patient id, received ${id} again`);
          real.trace.push(`  (id ${id})`);
          m.live.set(id, body);
          if (isRecord(a.json) && a.json.active === false) m.inactive.add(id);
        }),
    );
  const create = patientBodies.map(createCommand);
  const getCommand = (pick: Pick, n: number) =>
    command<PatientLifecycleModel>(
      `get ${pick}[${n}]`,
      (m) => available(m, pick),
      async (m, real) => {
        const id = patientIdOf(m, pick, n);
        const a = await real.call('GET', patientPath(id), init());
        if (pick === 'deleted') return breaking('D3-3-05', () => expectTableRefusal(`get of ${pick} patient ${id}`, a));
        if (pick !== 'live') return expectTableRefusal(`get of ${pick} patient ${id}`, a);
        await breaking('D3-4.4-08', () => {
          expectSuccess(`get of patient ${id}`, a);
          const differs = sameAsSent(id, m.live.get(id) as JsonBody, a.json);
          if (differs) throw new ModelMismatch(`Expected patient ${id} as last sent, received ${differs}`);
        });
      },
    );
  const get = fc.tuple(pickArb, fc.nat(20)).map(([pick, n]) => getCommand(pick, n));
  const update = fc.tuple(fc.constantFrom<Pick>('live', 'deleted'), fc.nat(20), patientBodies).map(([pick, n, body]) =>
    command<PatientLifecycleModel>(
      `update ${pick}[${n}] with ${brief(body)}`,
      (m) => available(m, pick),
      async (m, real) => {
        const id = patientIdOf(m, pick, n);
        const a = await real.call('PUT', `/patients/${encodeURIComponent(id)}`, init({ ...body, id }));
        if (pick !== 'live') {
          await breaking('D3-3-06', () => expectNotServerError(`update of deleted patient ${id}`, a));
          // Accepted: whether it brought the patient back is not shown, so it is judged no further.
          if (a.status < 300) m.deleted = m.deleted.filter((d) => d !== id);
          return;
        }
        // 3: "A patient that is inactive cannot be updated" (created so by the target, DEC-D3-33).
        if (m.inactive.has(id))
          return breaking('D3-3-02', () => {
            if (a.status < 400 || a.status > 499)
              throw new ModelMismatch(`Expected the update of inactive patient ${id} refused, received ${a.status}`);
          });
        await breaking('D3-4.4-12', async () => {
          expectSuccess(`update of patient ${id}`, a);
          m.live.set(id, body);
          // D3-4.4-12: after an update, get returns the updated values.
          const back = await real.call('GET', patientPath(id), init());
          expectSuccess(`get of patient ${id} after its update`, back);
          const differs = sameAsSent(id, body, back.json);
          if (differs) throw new ModelMismatch(`Expected patient ${id} as updated, received ${differs}`);
        });
      },
    ),
  );
  // Mostly live ones: a delete that does nothing shows only once something was deleted.
  const removeCommand = (pick: Pick, n: number) =>
    command<PatientLifecycleModel>(
      `delete ${pick}[${n}]`,
      (m) => available(m, pick),
      async (m, real) => {
        const id = patientIdOf(m, pick, n);
        const a = await real.call('DELETE', patientPath(id), init());
        if (pick !== 'live')
          return breaking('D3-3-06', () => expectNotServerError(`delete of ${pick} patient ${id}`, a));
        await breaking('D3-3-05', async () => {
          expectSuccess(`delete of patient ${id}`, a);
          // D3-3-05, DEC-D3-08: after a delete, the patient is not served: get of it is refused.
          const back = await real.call('GET', patientPath(id), init());
          expectTableRefusal(`get of deleted patient ${id}`, back);
        });
        m.live.delete(id);
        m.inactive.delete(id);
        m.deleted = [...m.deleted, id];
        for (const [c, p] of m.conditions)
          if (p === id) {
            m.conditions.delete(c);
            m.orphaned = [...m.orphaned, c];
          }
      },
    );
  const remove = fc
    .tuple(fc.constantFrom<Pick>('live', 'live', 'live', 'deleted', 'unknown'), fc.nat(20))
    .map(([pick, n]) => removeCommand(pick, n));
  const addConditionCommand = (pick: Pick, n: number, body: JsonBody) =>
    command<PatientLifecycleModel>(
      `add condition to ${pick}[${n}]`,
      (m) => available(m, pick),
      async (m, real) => {
        const id = patientIdOf(m, pick, n);
        const named = conditionFor(body, id);
        const a = await real.call('POST', '/patients/patient/condition', init(named));
        // D3-4.4-17, D3 4.4 "the patient must already exist": a patient never created or deleted
        // does not, so the condition is refused (DEC-D3-08, DEC-D3-38).
        if (pick !== 'live')
          return breaking('D3-4.4-17', () => expectTableRefusal(`condition of ${pick} patient ${id}`, a));
        expectSuccess(`condition of patient ${id}`, a);
        const cid = isRecord(a.json) ? a.json.id : undefined;
        if (typeof cid !== 'string' || cid === '')
          throw new ModelMismatch(`Expected the created Condition with an id, received ${a.text?.slice(0, 80)}`);
        real.trace.push(`  (condition ${cid})`);
        m.conditions.set(cid, id);
      },
    );
  const addCondition = fc
    .tuple(fc.constantFrom<Pick>('live', 'deleted', 'unknown'), fc.nat(20), conditions)
    .map(([pick, n, body]) => addConditionCommand(pick, n, body));
  const removeCondition = fc.tuple(fc.constantFrom('live', 'gone', 'orphaned'), fc.nat(20)).map(([pick, n]) =>
    command<PatientLifecycleModel>(
      `delete condition ${pick}[${n}]`,
      (m) => (pick === 'live' ? m.conditions.size : pick === 'gone' ? m.goneConditions.length : m.orphaned.length) > 0,
      async (m, real) => {
        const ids = pick === 'live' ? [...m.conditions.keys()] : pick === 'gone' ? m.goneConditions : m.orphaned;
        const id = ids[n % ids.length];
        const a = await real.call('DELETE', `/patients/patient/condition/${encodeURIComponent(id)}`, init());
        if (pick === 'gone') return expectNotServerError(`second delete of condition ${id}`, a);
        // What a patient's delete does to its conditions is not documented: either answer.
        if (pick === 'orphaned' && a.status >= 400) return;
        expectSuccess(`delete of condition ${id}`, a);
        m.conditions.delete(id);
        m.orphaned = m.orphaned.filter((c) => c !== id);
        m.goneConditions = [...m.goneConditions, id];
      },
    ),
  );
  return {
    name: 'patient-lifecycle',
    setup: async () => ({
      live: new Map(),
      deleted: [],
      conditions: new Map(),
      goneConditions: [],
      orphaned: [],
      inactive: new Set(),
    }),
    // Create twice: every other command needs a patient made by the sequence.
    commands: [create, create, get, update, remove, addCondition, removeCondition],
    // Every documented transition once, whatever the seed: create, read, delete, read the deleted
    // one, create again (a new id, never the freed one), a condition for the deleted patient.
    opening: () => {
      const [first, second] = fc.sample(patientBodies, { seed: 1, numRuns: 2 });
      const [condition] = fc.sample(conditions, { seed: 1, numRuns: 1 });
      return [
        createCommand(first),
        getCommand('live', 0),
        removeCommand('live', 0),
        getCommand('deleted', 0),
        createCommand(second),
        addConditionCommand('live', 0, condition),
        addConditionCommand('deleted', 0, condition),
      ];
    },
  };
}
