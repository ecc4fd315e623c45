import { beforeAll, describe, expect, test } from 'vitest';
import { operation, operations } from '../../spec/operations.ts';
import { suiteGroups } from '../../spec/suiteCoupling.ts';
import { SUCCESS, SUCCESS_D3 } from '../exampleCalls.ts';
import { type Answer, TestSandbox } from '../testSupport.ts';
import { ActiveFaults, FAULTS, isFaultName } from './catalog.ts';
import {
  applyDerivedFault,
  DERIVED_FAULT_HEADER,
  type DerivedFaultInfo,
  derivedFaultEdit,
  derivedFaultInfo,
  derivedFaults,
  derivedFaultsOf,
  memberKeys,
  textNamesMember,
} from './derived.ts';

describe('derived shape faults', () => {
  test('are named deterministically and uniquely, apart from the hand-written catalogue', () => {
    const names = derivedFaults().map((f) => f.name);
    expect(names.length).toBeGreaterThan(1000);
    expect(new Set(names).size).toBe(names.length);
    // Recomputed from the schemas, the same names in the same order.
    expect(operations.flatMap((o) => derivedFaultsOf(o.id).map((f) => f.name))).toEqual(names);
    for (const f of derivedFaults()) {
      expect(f.name).toBe(`shape:${f.operations[0]}:/${f.path.join('/')}:${f.kind}`);
      expect(derivedFaultInfo(f.name)).toBe(f);
    }
    const hand = new Set(FAULTS.map((f) => f.name));
    expect(names.filter((n) => hand.has(n))).toEqual([]);
    expect(isFaultName(names[0])).toBe(true);
    expect(isFaultName('shape:get-code-set:/nope:missing')).toBe(false);
  });

  test('D2-2.2-04: a code-set item without `display` is a derived fault', () => {
    const names = derivedFaultsOf('get-code-set').map((f) => f.name);
    expect(names).toContain('shape:get-code-set:/expansion/contains/*/display:missing');
    expect(names).toContain('shape:get-code-set:/expansion/contains/*/display:type');
    expect(names).toContain('shape:get-code-set:/resourceType:unlisted');
    // The Bundle's entries are walked through the typed bundle's refinement of entry[].resource.
    expect(derivedFaultsOf('search-bills').map((f) => f.name)).toContain(
      'shape:search-bills:/entry/*/resource/id:missing',
    );
  });

  test('ActiveFaults resolves a derived name to its one operation', () => {
    const active = new ActiveFaults(['shape:get-code-set:/expansion/total:missing']);
    expect(active.for(['get-code-set'])).toHaveLength(1);
    expect(active.for(['lookup-locations'])).toHaveLength(0);
    expect(() => new ActiveFaults(['shape:get-code-set:/no/such:missing'])).toThrow('Unknown fault');
  });

  test('an edit reaches every item of an array and leaves objects without the member alone', () => {
    const fault = derivedFaultInfo('shape:get-code-set:/expansion/contains/*/code:missing') as DerivedFaultInfo;
    const body = {
      resourceType: 'ValueSet',
      expansion: { contains: [{ code: 'a', display: 'A' }, { display: 'B' }, { code: 'c', display: 'C' }] },
    };
    const edited = applyDerivedFault(fault, body);
    expect(edited.changed).toBe(2);
    expect(edited.body).toEqual({
      resourceType: 'ValueSet',
      expansion: { contains: [{ display: 'A' }, { display: 'B' }, { display: 'C' }] },
    });
    expect(body.expansion.contains[0]).toEqual({ code: 'a', display: 'A' });
    // Not the success answer: an error, another resource type, or nothing to edit.
    expect(derivedFaultEdit(fault, 404, body)).toBeUndefined();
    expect(derivedFaultEdit(fault, 200, { ...body, resourceType: 'OperationOutcome' })).toBeUndefined();
    expect(derivedFaultEdit(fault, 200, { resourceType: 'ValueSet', expansion: { contains: [] } })).toBeUndefined();
  });

  test('a row is about a member when it names it, and its parent when nested', () => {
    const paths = [
      ['id'],
      ['expansion', 'contains', '*', 'extension', '*', 'id'],
      ['expansion', 'contains', '*', 'display'],
    ];
    expect(memberKeys(['entry', '*', 'resource', 'id'])).toEqual(['id']);
    expect(memberKeys(['expansion', 'contains', '*', 'display'])).toEqual(['contains', 'display']);
    const d04 = 'Each `contains` item carries `system`, `code` (String) and `display` (String).';
    expect(textNamesMember(d04, paths[2], paths)).toBe(true);
    expect(textNamesMember('`display` of an `authority` entry', paths[2], paths)).toBe(false);
    // "extension entry with `id`" is about the extension's id, not the ValueSet's.
    const d06 = "A `contains` item's extension entry with `id` = `lastUpdated` carries a `valueDateTime`.";
    expect(textNamesMember(d06, paths[1], paths)).toBe(true);
    expect(textNamesMember(d06, paths[0], paths)).toBe(false);
    expect(textNamesMember('ValueSet: `resourceType` = ValueSet with `id`', paths[0], paths)).toBe(true);
    // A backticked request names a parameter, not the member of that name.
    expect(textNamesMember('`id=7` is answered with a ValueSet', paths[0], paths)).toBe(false);
  });
});

/**
 * Each derived fault changes its operation's answer on the sandbox: the first success example of
 * every operation (exampleCalls.ts) is called on a clean sandbox and on sandboxes holding derived
 * faults, in the same order so that stateful calls see the same state. Per operation one fault is
 * tried, of a kind that rotates with the operation (`missing`, `type`, `unlisted`, `absent`), among
 * those that edit its clean answer. A sandbox holds at most one of them per coupled suite group:
 * an example may set itself up through another operation of its group (a diary list through
 * post-auth), which another fault would spoil; and operations sharing a route (find-member v1 and
 * v2) would share each other's edits.
 */
describe('derived faults change the answer of their operation', () => {
  const calls = [...SUCCESS, ...SUCCESS_D3].filter(([id], i, all) => all.findIndex(([other]) => other === id) === i);
  const groups = suiteGroups();
  const groupOf = (id: string) => groups.get(operation(id).suite) as string;
  const KINDS = ['missing', 'type', 'unlisted', 'absent'] as const;
  const clean = new Map<string, Answer>();
  const rounds: DerivedFaultInfo[][] = [];
  const chosen: DerivedFaultInfo[] = [];

  const answers = async (faults: readonly string[]) => {
    const s = await TestSandbox.start(faults);
    try {
      const out = new Map<string, Answer>();
      for (const [id, , call] of calls) out.set(id, await call(s));
      return out;
    } finally {
      await s.close();
    }
  };

  beforeAll(async () => {
    for (const [id, a] of await answers([])) clean.set(id, a);
    calls.forEach(([id], i) => {
      const a = clean.get(id) as Answer;
      const edits = derivedFaultsOf(id).filter((x) => derivedFaultEdit(x, a.status, a.json) !== undefined);
      const preferred = KINDS[i % KINDS.length];
      const f = edits.find((x) => x.kind === preferred) ?? edits[0];
      if (f) chosen.push(f);
    });
    for (const f of chosen) {
      const round = rounds.find((r) => r.every((g) => groupOf(g.operations[0]) !== groupOf(f.operations[0])));
      if (round) round.push(f);
      else rounds.push([f]);
    }
  }, 60_000);

  test('almost every operation with a response schema has a fault that edits its answer, of each kind', () => {
    const withBody = calls.filter(([id]) => derivedFaultsOf(id).length > 0).length;
    expect(chosen.length).toBeGreaterThan(withBody * 0.9);
    expect(new Set(chosen.map((f) => f.kind))).toEqual(new Set(KINDS));
  });

  test('each fault marks and changes its answer', async () => {
    const problems: string[] = [];
    for (const round of rounds) {
      const faulty = await answers(round.map((f) => f.name));
      for (const f of round) {
        const a = faulty.get(f.operations[0]) as Answer;
        const marks = (a.headers.get(DERIVED_FAULT_HEADER) ?? '').split(', ');
        if (!marks.includes(f.name)) problems.push(`${f.name}: not marked (${a.status})`);
        // Applying the fault again changes nothing: the answer already holds the edit everywhere.
        if (derivedFaultEdit(f, a.status, a.json) !== undefined) problems.push(`${f.name}: answer not edited`);
        if (a.text === clean.get(f.operations[0])?.text) problems.push(`${f.name}: answer unchanged`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
