/**
 * Payor and contract maintenance of one site (Document 3, 4.5; DEC-D3-12..15) as a state
 * machine: listing the site's payors creates `slf` and `na` when missing, so every listing holds
 * them once each; upserting a payor without id creates it, and upserting it with the id the
 * create answered updates it under that id (never a second one; an upsert without id of a payor
 * the site holds is not sent, DEC-D3-71); a deleted payor is no longer listed and deleting it
 * again is refused; a contract service set for a payor can be deleted once.
 * Model: the site's payors the sequence made (type and id -> contract id), those it deleted, and
 * the services it set (code -> payors holding it).
 */
import fc from 'fast-check';
import { payorOf } from '../core/readers/payor.ts';
import {
  command,
  expectNotServerError,
  expectSuccess,
  isRecord,
  listAllPages,
  ModelMismatch,
  type MachineReal,
  type MachineRequest,
  type StateMachine,
} from './stateMachineRunner.ts';

export interface PayorMaintenanceModel {
  /** `I/<id>` or `C/<id>` -> the contract id the target answered. */
  payors: Map<string, string>;
  /** Deleted payors with the contract id they had. */
  deleted: Map<string, string>;
  /** Service code -> the payors (keys) it was set for. */
  services: Map<string, Set<string>>;
  /** Services deleted (absent for sure). */
  deletedServices: string[];
}

export interface PayorMaintenanceFixtures {
  /** The site whose payors are maintained (default SITE005, the sandbox's fresh site). */
  siteId?: string;
  /** The target's {ref_url}, for the Contract codings. */
  refUrl?: string;
}

const RESERVED = ['slf', 'na'];
/** Payor ids of the sequences (DEC-D3-13: the suite's codes are prefixed CONF-). */
const PAYOR_IDS = ['CONF-SM-A', 'CONF-SM-B', 'CONF-SM-C'];
const SERVICE_CODES = ['CONF-SM-SVC1', 'CONF-SM-SVC2'];
const PREFIX = { I: 'Organization', C: 'Person' } as const;

type PayorType = keyof typeof PREFIX;
const keyOf = (type: PayorType, id: string) => `${type}/${id}`;
const parseKey = (key: string) => ({ type: key.slice(0, 1) as PayorType, id: key.slice(2) });

/** The payor a listed Contract stands for, as a key: read by the one payor reader (DEC-D3-37). */
function listedKey(contract: Record<string, unknown>): string | undefined {
  const payor = payorOf(contract);
  return payor === undefined ? undefined : keyOf(payor.type, payor.id);
}

export function payorMaintenanceMachine(fixtures: PayorMaintenanceFixtures = {}): StateMachine<PayorMaintenanceModel> {
  const site = fixtures.siteId ?? 'SITE005';
  const refUrl = fixtures.refUrl ?? 'https://sandbox.example/ref';
  const init = (body?: unknown): MachineRequest => ({
    credential: 'client',
    headers: { 'content-type': 'application/fhir+json', accept: 'application/fhir+json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const payorContract = (type: PayorType, id: string, display: string, contractId?: string) => ({
    resourceType: 'Contract',
    ...(contractId === undefined ? {} : { id: contractId }),
    subject: [{ reference: `Site/${site}` }],
    authority: [{ reference: `${PREFIX[type]}/${id}`, display }],
    type: { coding: [{ system: `${refUrl}/valueset/contract-type`, code: 'PRICING', display: 'Pricing' }] },
  });
  // 4.5 Set contract service: "Contract with `id`": the payor's Contract (DEC-D3-60).
  const priceContract = (contractId: string, payorId: string, code: string) => ({
    resourceType: 'Contract',
    id: contractId,
    subject: [{ reference: `Site/${site}` }],
    term: [
      {
        asset: [
          {
            type: [{ coding: [{ code: 'PriceGroupAssignment' }] }],
            context: [{ reference: { reference: `Payor/I-${payorId}` }, display: payorId }],
            valuedItem: [{ entityCodeableConcept: { coding: [{ system: 'ISC', code, display: code }] } }],
          },
        ],
      },
    ],
  });

  async function listed(real: MachineReal): Promise<string[]> {
    const path = `/contracts/contract/site/${encodeURIComponent(site)}`;
    const contracts = await listAllPages(real, 'list site payors', path, init(), 'maxCount');
    return contracts.flatMap((c) => listedKey(c) ?? []);
  }

  const list = fc.constant(
    command<PayorMaintenanceModel>(
      'list payors',
      () => true,
      async (m, real) => {
        const keys = await listed(real);
        const times = (key: string) => keys.filter((k) => k === key).length;
        for (const r of RESERVED) {
          const n = times(keyOf('I', r));
          if (n !== 1)
            throw new ModelMismatch(`Expected Organization/${r} listed once (DEC-D3-12), received ${n} times`);
        }
        for (const key of m.payors.keys()) {
          const n = times(key);
          if (n !== 1) throw new ModelMismatch(`Expected payor ${key} listed once, received ${n} times`);
        }
        for (const key of m.deleted.keys())
          if (times(key) > 0) throw new ModelMismatch(`Expected deleted payor ${key} gone, received it listed`);
      },
    ),
  );
  // 4.5: "`id` (required for update)". Whether a Contract without id naming a payor the site holds
  // updates it or creates another is not shown (DEC-D3-71): a payor the model holds is updated by
  // the id its create answered, one it does not hold is created without id.
  const upsert = fc
    .tuple(fc.constantFrom<PayorType>('I', 'C'), fc.constantFrom(...PAYOR_IDS), fc.stringMatching(/^[A-Z][a-z]{1,8}$/))
    .map(([type, id, display]) =>
      command<PayorMaintenanceModel>(
        `upsert ${keyOf(type, id)} display ${display}`,
        () => true,
        async (m, real) => {
          const key = keyOf(type, id);
          const known = m.payors.get(key);
          const a = await real.call('POST', '/contracts/contract', init(payorContract(type, id, display, known)));
          expectSuccess(`${known === undefined ? 'create' : 'update'} of payor ${key}`, a);
          const contractId = isRecord(a.json) ? a.json.id : undefined;
          if (typeof contractId !== 'string' || contractId === '')
            throw new ModelMismatch(`Expected the payor Contract with an id, received ${a.text?.slice(0, 80)}`);
          if (known !== undefined && contractId !== known)
            throw new ModelMismatch(
              `Expected the update of payor ${key} to answer its contract id ${known}, received ${contractId}`,
            );
          m.payors.set(key, contractId);
          m.deleted.delete(key);
        },
      ),
    );
  const remove = fc.tuple(fc.constantFrom('live', 'deleted', 'unknown'), fc.nat(20)).map(([pick, n]) =>
    command<PayorMaintenanceModel>(
      `delete ${pick}[${n}]`,
      (m) => (pick === 'live' ? m.payors.size > 0 : pick === 'deleted' ? m.deleted.size > 0 : true),
      async (m, real) => {
        const pool = pick === 'live' ? [...m.payors] : pick === 'deleted' ? [...m.deleted] : [];
        const [key, contractId] =
          pool.length > 0 ? pool[n % pool.length] : [keyOf('I', PAYOR_IDS[n % 3]), `SM-NO-CONTRACT-${n}`];
        const { type, id } = parseKey(key);
        const query = new URLSearchParams({
          payorId: `${PREFIX[type]}/${id}`,
          payorType: type,
          providerGroup: contractId,
        });
        const a = await real.call('DELETE', `/contracts/contract/${encodeURIComponent(site)}?${query}`, init());
        // Deleting what does not exist: "no operation-specific errors"; only not a 5xx (DEC-D3-59).
        if (pick !== 'live') return expectNotServerError(`delete of ${pick} payor ${key} (contract ${contractId})`, a);
        expectSuccess(`delete of payor ${key}`, a);
        m.payors.delete(key);
        m.deleted.set(key, contractId);
        for (const holders of m.services.values()) holders.delete(key);
      },
    ),
  );
  const setService = fc.tuple(fc.nat(20), fc.constantFrom(...SERVICE_CODES)).map(([n, code]) =>
    command<PayorMaintenanceModel>(
      `set service ${code} for insurer[${n}]`,
      (m) => [...m.payors.keys()].some((k) => k.startsWith('I/')),
      async (m, real) => {
        const insurers = [...m.payors.keys()].filter((k) => k.startsWith('I/'));
        const key = insurers[n % insurers.length];
        const a = await real.call(
          'POST',
          '/contracts/contract/PRICING/$contract-price',
          init(priceContract(m.payors.get(key) as string, parseKey(key).id, code)),
        );
        expectSuccess(`set contract service ${code} for ${key}`, a);
        m.services.set(code, new Set([...(m.services.get(code) ?? []), key]));
        m.deletedServices = m.deletedServices.filter((c) => c !== code);
      },
    ),
  );
  const removeService = fc.constantFrom(...SERVICE_CODES).map((code) =>
    command<PayorMaintenanceModel>(
      `delete service ${code}`,
      () => true,
      async (m, real) => {
        const query = new URLSearchParams({ indStdCode: code, indStdCodeScheme: 'ISC' });
        const a = await real.call(
          'DELETE',
          `/contracts/contract/PRICING/$contract-price/${encodeURIComponent(site)}?${query}`,
          init(),
        );
        const holders = m.services.get(code);
        if (holders !== undefined && holders.size > 0) {
          expectSuccess(`delete of service ${code}`, a);
        } else if (m.deletedServices.includes(code)) {
          expectNotServerError(`delete of deleted service ${code}`, a);
        } else if (a.status >= 400 && a.status <= 499) {
          // Never set by this sequence (a target without reset may hold it from an earlier one), or
          // its payors were deleted (whether their prices went with them is not documented).
          return;
        } else {
          expectSuccess(`delete of service ${code}`, a);
        }
        m.services.delete(code);
        m.deletedServices = [...m.deletedServices, code];
      },
    ),
  );
  return {
    name: 'payor-maintenance',
    setup: async () => ({ payors: new Map(), deleted: new Map(), services: new Map(), deletedServices: [] }),
    commands: [list, upsert, remove, setService, removeService],
  };
}
