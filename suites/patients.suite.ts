/**
 * Patient records (Document 3, 2.4, 2.5, 3, 4.4, 5, 7): the lifecycle as a state machine on
 * patients the suite creates and always deletes, property-generated patients that must
 * round-trip unchanged, conditions, the inactive-patient rule, missing headers (401), error tables.
 */
import { test } from 'vitest';
import {
  deletedStatusParameters, errorStatusAndCode, patientRoundTrip, requestRefused, statusIs, successStatus,
} from '../checks/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { bodyOf, hasResponse, isRecord } from '../core/exchange.ts';
import { judge, verifyProperty } from '../core/property.ts';
import type { CallOptions } from '../core/suite.ts';
import { call, describeFlow, describeOperation, record, runContext, tokenFor, verify } from '../core/suite.ts';
import { patientArbitrary } from '../generators/patientArbitrary.ts';
import { operation } from '../spec/operations.ts';
import { DESTRUCTIVE_CHECK, FIXTURE_CHECK, verifyError, verifySuccess } from './common/steps.ts';


/** Patient calls carry the user's token and the configured version header (DEC-D3-07). */
async function patientCall(id: string, options: CallOptions = {}): Promise<Exchange> {
  const token = (await tokenFor('user')) ?? runContext().token;
  const version = runContext().fixtures.patients?.versionHeader;
  const custom = version && version.name !== 'SVC-API-Version';
  return call(id, {
    ...options,
    values: { token, ...options.values },
    ...(custom ? { omitHeaders: [...(options.omitHeaders ?? []), 'SVC-API-Version'], headers: { [version.name]: version.value, ...options.headers } } : {}),
  });
}

const json = (v: unknown) => JSON.stringify(v);
const idOf = (x: Exchange) => {
  const b = bodyOf(x);
  return isRecord(b) && typeof b.id === 'string' && b.id !== '' ? b.id : undefined;
};

function destructiveOmitted(operationId: string, requirements: string[]): boolean {
  if (runContext().allowDestructive) return false;
  record(DESTRUCTIVE_CHECK, 'omit', 'Creating and deleting patients changes data; run with --allow-destructive to include it', { operation: operationId, level: 'MUST', requirements });
  return true;
}

/** Creates a patient, runs the body, and always deletes what it created (DEC-D3-13 applies alike). */
async function withPatient(sent: Record<string, unknown>, body: (id: string, created: Exchange) => Promise<void>): Promise<Exchange> {
  const created = await patientCall('create-patient', { body: json(sent) });
  const id = idOf(created);
  try {
    if (id) await body(id, created);
  } finally {
    if (id) await patientCall('delete-patient', { path: { patient_id: id } });
  }
  return created;
}

describeFlow('patient lifecycle', ['create-patient', 'get-patient', 'update-patient', 'delete-patient'], () => {
  test('the lifecycle: create, get, update, delete, gone', async () => {
    if (destructiveOmitted('create-patient', ['D3-4.4-04'])) return;
    const [sent] = (await import('@fast-check/vitest')).fc.sample(patientArbitrary(), { seed: runContext().seed, numRuns: 1 });
    const created = await patientCall('create-patient', { body: json(sent) });
    if (!verifySuccess(created, 'create-patient', { success: ['D3-4.4-04'], schema: ['D3-2.4-01'] })) return;
    const id = idOf(created);
    record({ id: 'new-id-assigned', summary: 'Create assigns a new id' }, id ? 'pass' : 'fail', id ? `id ${id}` : 'Expected a new id in the created Patient, received none', { operation: 'create-patient', level: 'MUST', requirements: ['D3-4.4-04'], exchange: created });
    if (!id) return;
    verify(created, patientRoundTrip(sent), { operation: 'create-patient', level: 'MUST', requirements: ['D3-4.4-04'] });
    const got = await patientCall('get-patient', { path: { patient_id: id } });
    if (verifySuccess(got, 'get-patient', { success: ['D3-4.4-08'], schema: ['D3-2.4-01'] }, { status: 200 })) {
      verify(got, patientRoundTrip(sent), { operation: 'get-patient', level: 'MUST', requirements: ['D3-4.4-08'] });
    }
    const changed = { ...sent, id, name: [{ family: 'Conformance', given: ['Updated'], prefix: ['Dr'] }] };
    const updated = await patientCall('update-patient', { path: { patient_id: id }, body: json(changed) });
    if (verifySuccess(updated, 'update-patient', { success: ['D3-4.4-11'], schema: ['D3-2.4-01'] })) {
      verify(updated, patientRoundTrip(changed), { operation: 'update-patient', level: 'MUST', requirements: ['D3-4.4-11'] });
      verify(await patientCall('get-patient', { path: { patient_id: id } }), patientRoundTrip(changed), { operation: 'update-patient', level: 'MUST', requirements: ['D3-4.4-11'] });
    }
    const deleted = await patientCall('delete-patient', { path: { patient_id: id } });
    if (verifySuccess(deleted, 'delete-patient', { success: ['D3-4.4-14'], schema: ['D3-4.4-14'] })) {
      verify(deleted, deletedStatusParameters, { operation: 'delete-patient', level: 'MUST', requirements: ['D3-4.4-14'] });
    }
    const gone = await patientCall('get-patient', { path: { patient_id: id } });
    verifyError(gone, 'delete-patient', 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', ['D3-7-28', 'D3-3-05'], { decisions: ['DEC-D3-08'] });
  });

  test('property: generated patients round-trip unchanged', async () => {
    if (destructiveOmitted('create-patient', ['D3-4.4-04'])) return;
    await verifyProperty({
      operation: 'create-patient',
      level: 'MUST',
      requirements: ['D3-4.4-04', 'D3-4.4-08'],
      arbitrary: patientArbitrary(),
      exercise: async (sent) => {
        let got: Exchange | undefined;
        const created = await withPatient(sent, async (id) => {
          got = await patientCall('get-patient', { path: { patient_id: id } });
        });
        return [judge(created, successStatus()), ...(got ? [judge(got, patientRoundTrip(sent))] : [])];
      },
    });
  });

  test('missing mandatory headers are answered 401; an unparsable body 400', async () => {
    for (const h of operation('create-patient').headers.filter((hh) => hh.enforced)) {
      const x = await patientCall('get-patient', { path: { patient_id: 'PAT-0001' }, omitHeaders: [h.name] });
      verify(x, statusIs(401), { operation: 'create-patient', level: 'MUST', requirements: ['D3-5-10', 'D3-7-40'], decisions: ['DEC-D3-07'], evidence: { omitted: h.name } });
    }
    if (destructiveOmitted('create-patient', ['D3-7-23'])) return;
    const x = await patientCall('create-patient', { body: '{"resourceType": "Patient", ' });
    verifyError(x, 'create-patient', 'MSG_CANT_PARSE_CONTENT', ['D3-7-23']);
    const id = idOf(x);
    if (id) await patientCall('delete-patient', { path: { patient_id: id } });
  });
});

describeOperation('update-patient', () => {
  test('an inactive patient cannot be updated', async () => {
    const inactive = runContext().fixtures.patients?.inactivePatientId;
    if (!inactive) return record(FIXTURE_CHECK, 'skip', 'No fixture patients.inactivePatientId', { operation: 'update-patient', level: 'MUST', requirements: ['D3-3-02'] });
    const before = await patientCall('get-patient', { path: { patient_id: inactive } });
    const x = await patientCall('update-patient', { path: { patient_id: inactive }, body: json({ ...(bodyOf(before) as object), id: inactive, gender: 'other' }) });
    verify(x, requestRefused, { operation: 'update-patient', level: 'MUST', requirements: ['D3-3-02'], decisions: ['DEC-D3-08'] });
    verify(x, errorStatusAndCode(operation('update-patient').errors), { operation: 'update-patient', level: 'INFO', requirements: ['D3-3-02'] });
  });
});

describeFlow('conditions', ['create-condition', 'delete-condition'], () => {
  test('a condition needs an existing patient; it is created and deleted', async () => {
    if (destructiveOmitted('create-condition', ['D3-4.4-15'])) return;
    const condition = (patientId: string) => ({
      resourceType: 'Condition',
      evidence: [{ detail: [{ display: 'referral.pdf', identifier: { id: 'attachment', system: 'https://files.example', value: 'files/referral.pdf' } }] }],
      note: [{ text: 'Conformance note', authorReference: { reference: `patient/${patientId}` } }],
    });
    const orphan = await patientCall('create-condition', { body: json(condition('NO-SUCH-PATIENT-000')) });
    verifyError(orphan, 'create-condition', 'MSG_REFERENCE_ID_NOT_FOUND', ['D3-4.4-15', 'D3-4.4-17'], { decisions: ['DEC-D3-08'] });
    const [sent] = (await import('@fast-check/vitest')).fc.sample(patientArbitrary(), { seed: runContext().seed + 1, numRuns: 1 });
    await withPatient(sent, async (patientId) => {
      const x = await patientCall('create-condition', { body: json(condition(patientId)) });
      if (!verifySuccess(x, 'create-condition', { success: ['D3-4.4-15'], schema: ['D3-2.5-01'] }) || !hasResponse(x)) return;
      const conditionId = idOf(x);
      if (!conditionId) return void record({ id: 'new-id-assigned', summary: 'Create assigns a new id' }, 'fail', 'Expected an id in the created Condition, received none', { operation: 'create-condition', level: 'MUST', requirements: ['D3-4.4-15'], exchange: x });
      const del = await patientCall('delete-condition', { path: { condition_id: conditionId } });
      if (verifySuccess(del, 'delete-condition', { success: ['D3-4.4-18'] })) verify(del, deletedStatusParameters, { operation: 'delete-condition', level: 'MUST', requirements: ['D3-4.4-18'] });
    });
  });
});
