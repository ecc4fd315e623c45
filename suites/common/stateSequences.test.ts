/**
 * The stateful sequences inside `conformance run` (issue 14, item 4), each a real run of the
 * command against a sandbox of its own, limited to the machines' operations:
 * - the clean sandbox with --allow-destructive: the three `state-sequence-holds` verdicts pass;
 * - a sandbox with the state faults `ack-keeps-batch`, `patient-deleted-still-readable` and
 *   `payors-duplicated`: each machine's verdict fails at MUST, naming its shortest failing
 *   sequence, with the seed and the machine path (`<fast-check path>#<hint>`) that replay it;
 * - without --allow-destructive: the machines send nothing and their operations are `omit`;
 * - the answers the machines receive are judged against their operation's documented body: on the
 *   clean sandbox they pass, and a sandbox with the derived shape faults that gave a created
 *   patient's `name[].given`, `birthDate` or `address[].postalCode` another type (holes of
 *   spec/evidence/power.json before) fails `matches-schema` at MUST on an answer they changed.
 * Needs the hook lines of suites/common/stateSequences.ts in the three suite files. Also the
 * mapping of the machines' reference paths onto the operation table.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResults } from '../../core/results.ts';
import { DERIVED_FAULT_HEADER } from '../../server/faults/derived.ts';
import { startSandbox } from '../../server/http.ts';
import { operation } from '../../spec/operations.ts';
import { loadRequirements } from '../../spec/requirements.ts';
import { resolveMachineRequest, SCHEMA_ROWS, STATE_SEQUENCE_OPERATIONS } from './stateSequences.ts';
import { readResults, reportDir, runCli } from '../../test/support/cli.ts';
import { stricterThanCited } from '../../test/support/levels.ts';

describe('resolveMachineRequest', () => {
  test('maps reference paths onto the operations, their path parameters and query', () => {
    const ack = resolveMachineRequest('batch-cycle', 'DELETE', '/claims/claimresponse/$batch/B%2F1');
    expect(ack).toMatchObject({ operation: { id: 'ack-remittance' }, path: { id: 'B/1' } });
    expect(resolveMachineRequest('batch-cycle', 'GET', '/claims/claimresponse/$batch')?.operation.id).toBe(
      'list-pending-remittances',
    );
    expect(resolveMachineRequest('patient-lifecycle', 'PUT', '/patients/P1')?.path).toEqual({ patient_id: 'P1' });
    expect(resolveMachineRequest('patient-lifecycle', 'DELETE', '/patients/patient/condition/C1')).toMatchObject({
      operation: { id: 'delete-condition' },
      path: { condition_id: 'C1' },
    });
    expect(resolveMachineRequest('patient-lifecycle', 'POST', '/patients/patient')?.operation.id).toBe(
      'create-patient',
    );
  });

  test('tells apart the operations sharing an address, and knows none outside the machine', () => {
    const contact = JSON.stringify({ authority: [{ reference: 'Person/CONF-SM-A' }] });
    expect(resolveMachineRequest('payor-maintenance', 'POST', '/contracts/contract', contact)?.operation.id).toBe(
      'upsert-contact-payor',
    );
    expect(resolveMachineRequest('payor-maintenance', 'POST', '/contracts/contract', '{}')?.operation.id).toBe(
      'upsert-payor',
    );
    const del = resolveMachineRequest(
      'payor-maintenance',
      'DELETE',
      '/contracts/contract/SITE001?payorId=Person%2FX&payorType=C&providerGroup=K1',
    );
    expect(del).toMatchObject({
      operation: { id: 'delete-contact-payor' },
      path: { site: 'SITE001' },
      query: { payorId: 'Person/X', payorType: 'C', providerGroup: 'K1' },
    });
    expect(
      resolveMachineRequest(
        'payor-maintenance',
        'DELETE',
        '/contracts/contract/PRICING/$contract-price/S1?indStdCode=X',
      )?.operation.id,
    ).toBe('delete-contract-service');
    expect(resolveMachineRequest('batch-cycle', 'GET', '/patients/patient/P1')).toBeUndefined();
  });
});

describe('SCHEMA_ROWS', () => {
  test('covers every operation of the machines with a response schema, citing its own MUST rows only', () => {
    const rows = new Map(loadRequirements('server').map((r) => [r.id, r]));
    for (const id of Object.values(STATE_SEQUENCE_OPERATIONS).flat()) {
      if (!operation(id).responseSchema) continue;
      expect(SCHEMA_ROWS[id], id).toBeDefined();
      for (const row of SCHEMA_ROWS[id] ?? []) {
        expect(rows.get(row)?.level, `${id} ${row}`).toBe('MUST');
        expect(rows.get(row)?.operations, `${id} ${row}`).toContain(id);
      }
    }
  });
});

const TIMEOUT = 300_000;
const ONLY = Object.values(STATE_SEQUENCE_OPERATIONS).flat().join(',');
const FAULTS = ['ack-keeps-batch', 'patient-deleted-still-readable', 'payors-duplicated'];
/** Derived shape faults no suite step sees: only the patient machine's generated patients carry these members. */
const SHAPE_FAULTS = [
  'shape:create-patient:/name/*/given:type',
  'shape:create-patient:/birthDate:type',
  'shape:create-patient:/address/*/postalCode:type',
];

let sandboxes: Awaited<ReturnType<typeof startSandbox>>[] = [];
let clean: RunResults;
let faulty: RunResults;
let safe: RunResults;
let shapes: RunResults;

/** Seed and runs per run: seed 2 catches the three faults with 8 sequences; the others judge less. */
const FAULTY_SEED = 2;
async function run(target: string, extra: string[], runs: number, seed = 14, only = ONLY): Promise<RunResults> {
  const dir = reportDir();
  const args = [
    'run',
    '--target',
    target,
    '--only',
    only,
    '--seed',
    String(seed),
    '--runs',
    String(runs),
    '--report-dir',
    dir,
  ];
  await runCli([...args, ...extra], { timeoutMs: TIMEOUT });
  return readResults(dir);
}

beforeAll(async () => {
  sandboxes = await Promise.all([
    startSandbox(),
    startSandbox({ faults: FAULTS }),
    startSandbox(),
    startSandbox({ faults: SHAPE_FAULTS }),
  ]);
  // Two at a time: the machine has two cores.
  [clean, faulty] = await Promise.all([
    run(sandboxes[0].url, ['--allow-destructive'], 5),
    run(sandboxes[1].url, ['--allow-destructive'], 8, FAULTY_SEED),
  ]);
  [safe, shapes] = await Promise.all([
    run(sandboxes[2].url, [], 1),
    run(sandboxes[3].url, ['--allow-destructive'], 3, 14, STATE_SEQUENCE_OPERATIONS['patient-lifecycle'].join(',')),
  ]);
}, 4 * TIMEOUT);

afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

const verdicts = (results: RunResults) => results.results.filter((r) => r.check === 'state-sequence-holds');
const machineOf = (r: RunResults['results'][number]) => String(r.evidence?.machine);

describe('against the clean sandbox with --allow-destructive', () => {
  test('the three machines pass, one MUST verdict each, citing MUST rows only', () => {
    const found = verdicts(clean);
    expect(found.map((r) => `${machineOf(r)} ${r.status}: ${r.message}`).sort()).toEqual([
      expect.stringMatching(/^batch-cycle pass: 5 generated batch-cycle sequences/),
      expect.stringMatching(/^patient-lifecycle pass: 5 generated/),
      expect.stringMatching(/^payor-maintenance pass: 5 generated/),
    ]);
    for (const r of found) expect(r).toMatchObject({ level: 'MUST', replay: { seed: 14 } });
    expect(stricterThanCited(clean)).toEqual([]);
  });
});

describe('against a sandbox with the three state faults', () => {
  test.each([
    ['batch-cycle', /acknowledged .* (gone|refused)/],
    ['patient-lifecycle', /deleted patient \S+ to be refused/],
    ['payor-maintenance', /Organization\/slf listed once/],
  ])('%s fails with its shortest sequence, seed and machine path', (machine, why) => {
    const r = verdicts(faulty).find((v) => machineOf(v) === machine);
    expect(r).toMatchObject({ status: 'fail', level: 'MUST', replay: { seed: FAULTY_SEED } });
    expect(r?.message).toMatch(/received the shortest failing sequence \(\d+ commands?: /);
    expect(r?.message).toMatch(why);
    expect(r?.replay?.path).toMatch(/^\d+(:\d+)*#/);
    expect(r?.replay?.counterexample).toEqual(r?.evidence?.counterexample);
    expect(String(r?.evidence?.failure)).not.toMatch(/Bearer|access_token/);
    // The verdict points at the failing command's exchange, recorded like every other.
    expect(r?.exchange).toEqual(expect.any(Number));
    expect(faulty.exchanges[r?.exchange ?? -1]).toBeDefined();
  });
});

describe('without --allow-destructive', () => {
  test('no verdict: the machines send nothing and their operations that change data are omitted', () => {
    expect(verdicts(safe)).toEqual([]);
    const omitted = safe.results.filter((r) => r.status === 'omit' && /in generated orders/.test(r.message));
    expect(omitted.map((r) => r.operation).sort()).toEqual(
      expect.arrayContaining(['ack-remittance', 'delete-patient', 'upsert-payor']),
    );
    for (const r of omitted) expect(r.message).toMatch(/^needs --allow-destructive: would /);
  });
});

/** The schema judgements of the answers a machine received (their evidence names the machine). */
const machineShapes = (results: RunResults) =>
  results.results.filter((r) => r.check === 'matches-schema' && r.evidence?.machine !== undefined);

describe('the answers the machines receive are judged against the documented body', () => {
  test('on the clean sandbox: one passing matches-schema per operation answered, at MUST, for each machine', () => {
    const found = machineShapes(clean);
    expect(found.filter((r) => r.status !== 'pass').map((r) => `${r.operation}: ${r.message}`)).toEqual([]);
    expect(new Set(found.map(machineOf))).toEqual(new Set(['batch-cycle', 'patient-lifecycle', 'payor-maintenance']));
    expect(found.map((r) => r.operation)).toEqual(
      expect.arrayContaining(['create-patient', 'get-patient', 'upsert-payor', 'list-pending-remittances']),
    );
    for (const r of found) {
      expect(r.level).toBe('MUST');
      expect(r.evidence?.answersJudged).toBeGreaterThan(0);
      expect(r.evidence?.answersFailing).toBe(0);
    }
    // One result per operation and machine.
    expect(new Set(found.map((r) => r.operation)).size).toBe(found.length);
  });

  test('a created patient with a member of another type fails matches-schema on an answer the fault changed', () => {
    const failed = machineShapes(shapes).filter((r) => r.operation === 'create-patient');
    expect(failed).toHaveLength(1);
    const [r] = failed;
    expect(r).toMatchObject({ status: 'fail', level: 'MUST', evidence: { machine: 'patient-lifecycle' } });
    expect(r.message).toMatch(/^Expected a body valid against patient\.schema\.json, received /);
    expect(r.message).toMatch(/\/name\/\d+\/given|\/birthDate|\/address\/\d+\/postalCode/);
    expect(r.requirements).toEqual(expect.arrayContaining(['D3-2.4-05', 'D3-2.4-09']));
    const marked = shapes.exchanges[r.exchange ?? -1]?.response?.headers[DERIVED_FAULT_HEADER] ?? '';
    expect(
      SHAPE_FAULTS.some((f) => marked.includes(f)),
      marked,
    ).toBe(true);
    expect(Number(r.evidence?.answersFailing)).toBeGreaterThan(0);
  });
});
