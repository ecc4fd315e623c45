/**
 * Patient records (Document 3, 2.4, 2.5, 3, 4.4, 5, 7): the lifecycle as a state machine on
 * patients the suite creates and always deletes, property-generated patients that must
 * round-trip unchanged, conditions, the inactive-patient rule, missing headers (401), error tables.
 */
import type { OperationId } from '../spec/operations.ts';
import { on } from '../core/suite.ts';
import { FIXTURE_CONFIGURED, PRECONDITION } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  conditionRoundTrip,
  deletedStatusParameters,
  documentedCodeHasItsStatus,
  errorStatusAndCode,
  membersPresent,
  newIdAssigned,
  notServerError,
  operationOutcomeShape,
  patientRoundTrip,
  requestRefused,
  resourceUnchanged,
  statusIs,
  successStatus,
} from '../checks/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { bodyOf, hasResponse, isRecord } from '../core/exchange.ts';
import { judge } from '../core/property.ts';
import type { CallOptions } from '../core/suite.ts';
import { call, describeFlow, describeOperation, runContext, tokenFor } from '../core/suite.ts';
import { conditionBody, conditionFor, patientBody } from '../generators/patientBody.ts';
import { operation } from '../spec/operations.ts';
import { omitUnlessDestructive } from './common/destructive.ts';
import { verifySuccess } from './common/steps.ts';
import { STATE_SEQUENCE_OPERATIONS, verifyStateSequence } from './common/stateSequences.ts';
import { describeDerivedRequests } from './common/derivedRequests.ts';

/** Patient calls carry the user's token and the configured version header (DEC-D3-07). */
async function patientCall(id: string, options: CallOptions = {}): Promise<Exchange> {
  const token = (await tokenFor('user')) ?? runContext().token;
  const version = runContext().fixtures.patients?.versionHeader;
  const custom = version && version.name !== 'SVC-API-Version';
  return call(id, {
    ...options,
    values: { token, ...options.values },
    ...(custom
      ? {
          omitHeaders: [...(options.omitHeaders ?? []), 'SVC-API-Version'],
          headers: { [version.name]: version.value, ...options.headers },
        }
      : {}),
  });
}

const json = (v: unknown) => JSON.stringify(v);
/** The `{ref_url}` of the generated patients' extensions (D3 2.4, DEC-D3-30). */
const REF_URL = 'https://ref.example';

/** Patient schema requirements: the typed members of 2.4 on every Patient answer. */
const PATIENT_SCHEMA = ['D3-2.4-01', 'D3-2.4-02', 'D3-2.4-05', 'D3-2.4-06', 'D3-2.4-08', 'D3-2.4-09'];
/** Condition schema requirements: note, evidence details, and the reference added on responses. */
const CONDITION_SCHEMA = ['D3-2.5-01', 'D3-2.5-02', 'D3-2.5-04', 'D3-2.5-05'];
/**
 * A patient refusal. The table of D3 7 lists its codes with a status and no condition, so no code
 * is tied to the request that provokes it (DEC-D3-08, DEC-D3-53): the request must be refused with
 * a 4xx carrying a code of the operation's table at that code's status (MUST, the rows of the
 * case; the code is in the body, D3-7-42; a documented code comes with its status, D3-7-39); the
 * code or codes whose name states the case are SHOULD; an OperationOutcome is SHOULD (DEC-D3-55).
 */
function verifyPatientRefusal(
  x: Exchange,
  id: OperationId,
  named: readonly string[],
  rows: { must: readonly string[]; should: readonly string[] },
  decisions: readonly string[],
): void {
  const table = operation(id).errors.filter((e) => e.code !== '');
  const fitting = table.filter((e) => named.includes(e.code));
  if (fitting.length !== named.length) throw new Error(`Suite bug: ${id} has no documented error ${named.join('/')}`);
  on(id)
    .must(...rows.must, 'D3-7-42')
    .under(...decisions)
    .check(x, errorStatusAndCode(table));
  on(id).must('D3-7-39').check(x, documentedCodeHasItsStatus(table));
  on(id)
    .should(...rows.should)
    .under(...decisions)
    .check(x, errorStatusAndCode(fitting));
  on(id)
    .should('D3-7-43')
    .under('DEC-D3-55', ...decisions)
    .check(x, operationOutcomeShape);
}

/** Members returned on read (2.4): `active`, `deceasedBoolean`, and an id on each telecom and address. */
function verifyReadMembers(x: Exchange): void {
  for (const [paths, req] of [
    [['active'], 'D3-2.4-03'],
    [['deceasedBoolean'], 'D3-2.4-04'],
    [['telecom[].id', 'address[].id'], 'D3-2.4-07'],
  ] as const) {
    on('get-patient').must(req).check(x, membersPresent(paths));
  }
}
const idOf = (x: Exchange) => {
  const b = bodyOf(x);
  return isRecord(b) && typeof b.id === 'string' && b.id !== '' ? b.id : undefined;
};

const LIFECYCLE = STATE_SEQUENCE_OPERATIONS['patient-lifecycle'];
/** Without --allow-destructive: one `omit` per selected operation of the flow (suites/common/destructive.ts). */
const destructiveOmitted = (operations: readonly OperationId[], what: string): boolean =>
  omitUnlessDestructive(operations, what);

/** Creates a patient, runs the body, and always deletes what it created (DEC-D3-13 applies alike). */
async function withPatient(
  sent: Record<string, unknown>,
  body: (id: string, created: Exchange) => Promise<void>,
): Promise<Exchange> {
  const created = await patientCall('create-patient', { body: json(sent) });
  const id = idOf(created);
  try {
    if (id) await body(id, created);
  } finally {
    if (id) await patientCall('delete-patient', { path: { patient_id: id } });
  }
  return created;
}

/**
 * The update of a live, active patient the suite created: its answer, the read-back and the update
 * errors (DEC-D3-54).
 */
async function verifyUpdates(id: string, changed: Record<string, unknown>): Promise<void> {
  const updated = await patientCall('update-patient', { path: { patient_id: id }, body: json(changed) });
  if (verifySuccess(updated, 'update-patient', { success: ['D3-4.4-11', 'D3-4.4-19'], schema: PATIENT_SCHEMA })) {
    on('update-patient').must('D3-4.4-11').check(updated, patientRoundTrip(changed));
    on('update-patient')
      .must('D3-4.4-11', 'D3-4.4-12')
      .under('DEC-D3-33')
      .check(await patientCall('get-patient', { path: { patient_id: id } }), patientRoundTrip(changed));
  }
  // Update errors (DEC-D3-54): another resourceType, no id, an unknown extension, an unknown or mismatched id.
  const { id: _omit, ...withoutId } = changed;
  void _omit;
  const update = (patientId: string, body: unknown) =>
    patientCall('update-patient', { path: { patient_id: patientId }, body: json(body) });
  const updateError = (...ids: string[]) =>
    on('update-patient')
      .must(...ids)
      .under('DEC-D3-54');
  // "Every update code is checked for status 422 whenever it appears" (DEC-D3-54, D3-7-39).
  const updateCodes = documentedCodeHasItsStatus(operation('update-patient').errors.filter((e) => e.code !== ''));
  const otherType = await update(id, { ...changed, resourceType: 'Condition' });
  updateError('D3-7-34').check(otherType, requestRefused);
  updateError('D3-7-39').check(otherType, updateCodes);
  const noId = await update(id, withoutId);
  updateError('D3-7-35').check(noId, statusIs(422));
  updateError('D3-7-35', 'D3-7-39', 'D3-7-42').check(noId, errorStatusAndCode(operation('update-patient').errors));
  const unknownExtension = [{ url: 'https://ref.example/extension/patient/no-such-extension', valueString: 'x' }];
  const extended = await update(id, { ...changed, extension: unknownExtension });
  updateError('D3-7-36').check(extended, notServerError);
  // Refusing or storing it is open (DEC-D3-63); an `INVALID_EXTENSION` answered is 422 (D3 7).
  updateError('D3-7-36', 'D3-7-39').check(extended, updateCodes);
  const unknownId = 'NO-SUCH-PATIENT-000';
  for (const x of [
    await update(unknownId, { ...changed, id: unknownId }),
    await update(id, { ...changed, id: 'NO-SUCH-PATIENT-001' }),
  ]) {
    updateError('D3-4.4-13').check(x, notServerError);
    updateError('D3-7-39').check(x, updateCodes);
  }
}

describeFlow('patient lifecycle', ['create-patient', 'get-patient', 'update-patient', 'delete-patient'], () => {
  test('the lifecycle: create, get, update, delete, gone', async () => {
    if (
      destructiveOmitted(
        LIFECYCLE,
        'would create a generated patient, read, update and delete it, then send requests about the deleted patient',
      )
    )
      return;
    const [sent] = (await import('fast-check')).default.sample(patientBody(REF_URL), {
      seed: runContext().seed,
      numRuns: 1,
    });
    const created = await patientCall('create-patient', { body: json(sent) });
    if (!verifySuccess(created, 'create-patient', { success: ['D3-4.4-04', 'D3-4.4-19'], schema: PATIENT_SCHEMA }))
      return;
    const id = idOf(created);
    on('create-patient').must('D3-4.4-04', 'D3-2.4-01').check(created, newIdAssigned);
    if (!id) return;
    on('create-patient')
      .must('D3-4.4-04', 'D3-4.4-05', 'D3-1-04')
      .under('DEC-D3-33')
      .check(created, patientRoundTrip(sent));
    const got = await patientCall('get-patient', { path: { patient_id: id } });
    if (verifySuccess(got, 'get-patient', { success: ['D3-4.4-08', 'D3-4.4-19'], schema: PATIENT_SCHEMA })) {
      on('get-patient').must('D3-4.4-08').check(got, patientRoundTrip(sent));
      verifyReadMembers(got);
    }
    const changed = { ...sent, id, name: [{ family: 'Conformance', given: ['Updated'], prefix: ['Dr'] }] };
    // The suite does not send `active` (the target's, DEC-D3-33): a patient the target created
    // inactive "cannot be updated" (3), so its update steps are not judged here.
    const createdInactive = [created, got].some((x) => {
      const b = bodyOf(x);
      return isRecord(b) && b.active === false;
    });
    if (createdInactive)
      on('update-patient')
        .must('D3-4.4-11', 'D3-4.4-12', 'D3-4.4-13', 'D3-7-34', 'D3-7-35', 'D3-7-36')
        .with({ exchange: created })
        .decided(
          PRECONDITION,
          'skip',
          `the target created patient ${id} inactive, and an inactive patient cannot be updated (3)`,
        );
    else await verifyUpdates(id, changed);
    const deleted = await patientCall('delete-patient', { path: { patient_id: id } });
    if (verifySuccess(deleted, 'delete-patient', { success: ['D3-4.4-14', 'D3-4.4-19'], schema: ['D3-4.4-14'] })) {
      on('delete-patient').must('D3-4.4-14').check(deleted, deletedStatusParameters);
    }
    // The deleted patient is not served (D3-3-05); 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE names the case (DEC-D3-08).
    const gone = await patientCall('get-patient', { path: { patient_id: id } });
    verifyPatientRefusal(
      gone,
      'delete-patient',
      ['MSG_ENTITY_NOT_FOUND_IN_DATABASE'],
      { must: ['D3-3-05', 'D3-7-28'], should: ['D3-7-47'] },
      ['DEC-D3-08'],
    );
    // Requests about the deleted patient are refused or answered, never a server error (DEC-D3-38).
    const orphanNote = [{ text: 'Conformance note', authorReference: { reference: `patient/${id}` } }];
    for (const [operationId, options] of [
      ['update-patient', { path: { patient_id: id }, body: json(changed) }],
      ['delete-patient', { path: { patient_id: id } }],
      ['create-condition', { body: json({ resourceType: 'Condition', note: orphanNote }) }],
      ['delete-condition', { path: { condition_id: 'NO-SUCH-CONDITION-000' } }],
      ['delete-patient', { path: { patient_id: 'NO-SUCH-PATIENT-000' } }],
    ] as const) {
      if (!runContext().addresses[operationId]) continue;
      const x = await patientCall(operationId, options);
      on(operationId).must('D3-3-06').under('DEC-D3-38').check(x, notServerError);
      // The answer is open (DEC-D3-38), but a code of the patient table it carries comes with the table's status.
      on(operationId)
        .must('D3-7-39')
        .check(x, documentedCodeHasItsStatus(operation(operationId).errors.filter((e) => e.code !== '')));
      if (operationId !== 'create-condition') continue;
      // "the patient must already exist" (4.4): a condition for the deleted patient is refused (DEC-D3-08).
      verifyPatientRefusal(
        x,
        'create-condition',
        ['MSG_REFERENCE_ID_NOT_FOUND'],
        { must: ['D3-4.4-17', 'D3-7-30'], should: ['D3-7-48'] },
        ['DEC-D3-08', 'DEC-D3-38'],
      );
      const stored = idOf(x);
      if (stored) await patientCall('delete-condition', { path: { condition_id: stored } });
    }
  });

  test('a Patient without optional members is accepted; invalid bodies get the documented codes', async () => {
    if (
      destructiveOmitted(
        ['create-patient', 'delete-patient'],
        'would create a bare patient and patients with invalid bodies, and delete what was created',
      )
    )
      return;
    const bare = await withPatient({ resourceType: 'Patient' }, async () => undefined);
    verifySuccess(bare, 'create-patient', { success: ['D3-2.4-10', 'D3-4.4-19'], schema: PATIENT_SCHEMA });
    const badDate = await patientCall('create-patient', {
      body: json({ resourceType: 'Patient', birthDate: '31/12/1999' }),
    });
    verifyPatientRefusal(
      badDate,
      'create-patient',
      ['MSG_INVALID_FORMAT', 'MSG_DATE_FORMAT'],
      { must: ['D3-7-25', 'D3-7-31'], should: ['D3-7-50'] },
      ['DEC-D3-53'],
    );
    const other = await patientCall('create-patient', { body: json({ resourceType: 'Condition' }) });
    verifyPatientRefusal(
      other,
      'create-patient',
      ['INVALID_RESOURCE', 'MSG_PARAM_INVALID'],
      { must: ['D3-7-26', 'D3-7-29'], should: ['D3-7-51'] },
      ['DEC-D3-53'],
    );
    for (const x of [badDate, other]) {
      const id = idOf(x);
      if (id) await patientCall('delete-patient', { path: { patient_id: id } });
    }
  });

  test('property: generated patients round-trip unchanged', async () => {
    if (
      destructiveOmitted(
        ['create-patient', 'get-patient', 'delete-patient'],
        'would create generated patients, read and delete them',
      )
    )
      return;
    await on('create-patient')
      .must('D3-4.4-04', 'D3-4.4-08')
      .property({
        arbitrary: patientBody(REF_URL),
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
      // Judged on the operation the request was sent to (get patient): a target serving it without a
      // header breaks get patient's rows.
      on('get-patient')
        .must('D3-5-10', 'D3-7-40', 'D3-4.4-01')
        .under('DEC-D3-07')
        .check(x, statusIs(401), { omitted: h.name });
    }
    if (
      destructiveOmitted(
        ['create-patient'],
        'would send an unparsable create body (and delete a patient created by mistake)',
      )
    )
      return;
    const x = await patientCall('create-patient', { body: '{"resourceType": "Patient", ' });
    verifyPatientRefusal(x, 'create-patient', ['MSG_CANT_PARSE_CONTENT'], { must: ['D3-7-23'], should: ['D3-7-49'] }, [
      'DEC-D3-53',
    ]);
    const id = idOf(x);
    if (id) await patientCall('delete-patient', { path: { patient_id: id } });
  });
});

describeOperation('get-patient', () => {
  test('an unknown id is refused (a code of the patient table); a fixture patient is read unchanged', async () => {
    const unknown = await patientCall('get-patient', { path: { patient_id: 'NO-SUCH-PATIENT-000' } });
    verifyPatientRefusal(
      unknown,
      'get-patient',
      ['MSG_ENTITY_NOT_FOUND_IN_DATABASE'],
      { must: ['D3-7-28'], should: ['D3-7-47'] },
      ['DEC-D3-08', 'DEC-D3-53'],
    );
    const fixture = runContext().fixtures.patients?.inactivePatientId;
    if (!fixture)
      return on('get-patient')
        .must('D3-4.4-07', 'D3-2.4-03', 'D3-2.4-04', 'D3-2.4-07')
        .decided(FIXTURE_CONFIGURED, 'skip', 'No fixture patients.inactivePatientId (an existing patient to read)');
    const got = await patientCall('get-patient', { path: { patient_id: fixture } });
    if (!verifySuccess(got, 'get-patient', { success: ['D3-4.4-07', 'D3-4.4-19'], schema: PATIENT_SCHEMA })) return;
    verifyReadMembers(got);
  });
});

describeOperation('update-patient', () => {
  on('update-patient').test(
    'an inactive patient cannot be updated',
    { fixtures: ['patients.inactivePatientId'], cites: ['D3-3-02'] },
    async ([inactive]) => {
      const before = await patientCall('get-patient', { path: { patient_id: inactive } });
      const x = await patientCall('update-patient', {
        path: { patient_id: inactive },
        body: json({ ...(bodyOf(before) as object), id: inactive, gender: 'other' }),
      });
      on('update-patient').must('D3-3-02').under('DEC-D3-08').check(x, requestRefused);
      on('update-patient')
        .info('D3-3-04')
        .under('DEC-D3-08')
        .check(x, errorStatusAndCode(operation('update-patient').errors));
      const after = await patientCall('get-patient', { path: { patient_id: inactive } });
      if (!hasResponse(before) || before.response.status >= 300) {
        return void on('update-patient')
          .must('D3-3-03')
          .with({ exchange: before })
          .decided(PRECONDITION, 'skip', `get of ${inactive} before the update did not answer the Patient`);
      }
      on('update-patient')
        .must('D3-3-03')
        .under('DEC-D3-08')
        .check(after, resourceUnchanged(bodyOf(before)));
    },
  );
});

describeFlow('conditions', ['create-condition', 'delete-condition'], () => {
  test('a condition needs an existing patient (refused otherwise); it is created and deleted', async () => {
    if (
      destructiveOmitted(
        ['create-condition', 'delete-condition', 'create-patient', 'delete-patient'],
        'would create a patient and conditions for it, then delete them',
      )
    )
      return;
    // A Condition derived from its request schema (generators/patientBody.ts), naming the patient.
    const [generated] = (await import('fast-check')).default.sample(conditionBody(), {
      seed: runContext().seed + 2,
      numRuns: 1,
    });
    const condition = (patientId: string) => conditionFor(generated, patientId);
    const orphan = await patientCall('create-condition', { body: json(condition('NO-SUCH-PATIENT-000')) });
    verifyPatientRefusal(
      orphan,
      'create-condition',
      ['MSG_REFERENCE_ID_NOT_FOUND'],
      { must: ['D3-4.4-15', 'D3-4.4-17', 'D3-7-30'], should: ['D3-7-48'] },
      ['DEC-D3-08'],
    );
    const orphanId = idOf(orphan);
    if (orphanId) await patientCall('delete-condition', { path: { condition_id: orphanId } });
    // D3 7's table covers the condition operations too: a body that is not JSON is refused (DEC-D3-53).
    const unparsable = await patientCall('create-condition', { body: '{"resourceType": "Condition", ' });
    verifyPatientRefusal(
      unparsable,
      'create-condition',
      ['MSG_CANT_PARSE_CONTENT'],
      { must: ['D3-7-23'], should: ['D3-7-49'] },
      ['DEC-D3-53'],
    );
    const unparsableId = idOf(unparsable);
    if (unparsableId) await patientCall('delete-condition', { path: { condition_id: unparsableId } });
    const [sent] = (await import('fast-check')).default.sample(patientBody(REF_URL), {
      seed: runContext().seed + 1,
      numRuns: 1,
    });
    await withPatient(sent, async (patientId) => {
      const x = await patientCall('create-condition', { body: json(condition(patientId)) });
      if (
        !verifySuccess(x, 'create-condition', { success: ['D3-4.4-15', 'D3-4.4-19'], schema: CONDITION_SCHEMA }) ||
        !hasResponse(x)
      )
        return;
      const sent = condition(patientId);
      on('create-condition').must('D3-4.4-16').under('DEC-D3-33', 'DEC-D3-34').check(x, conditionRoundTrip(sent));
      const bare = await patientCall('create-condition', {
        body: json({ resourceType: 'Condition', note: sent.note }),
      });
      if (verifySuccess(bare, 'create-condition', { success: ['D3-2.5-03'], schema: CONDITION_SCHEMA })) {
        const bareId = idOf(bare);
        if (bareId) await patientCall('delete-condition', { path: { condition_id: bareId } });
      }
      const noNote = await patientCall('create-condition', {
        body: json({ resourceType: 'Condition', evidence: sent.evidence }),
      });
      verifyPatientRefusal(
        noNote,
        'create-condition',
        ['MSG_MISSING_MANDATORY_PARAM', 'MSG_PARAM_INVALID', 'INVALID_RESOURCE'],
        { must: ['D3-7-24'], should: ['D3-7-52'] },
        ['DEC-D3-53'],
      );
      const conditionId = idOf(x);
      if (
        on('create-condition').must('D3-4.4-15', 'D3-2.5-01').check(x, newIdAssigned).status !== 'pass' ||
        !conditionId
      )
        return;
      const del = await patientCall('delete-condition', { path: { condition_id: conditionId } });
      if (verifySuccess(del, 'delete-condition', { success: ['D3-4.4-18', 'D3-4.4-19'], schema: ['D3-4.4-18'] }))
        on('delete-condition').must('D3-4.4-18').check(del, deletedStatusParameters);
    });
  });
});

/** Deletes the patient or condition a create answered (what a lenient target took from an invalid body). */
const undoCreate = (remove: 'delete-patient' | 'delete-condition') => async (taken: Exchange) => {
  const id = idOf(taken);
  if (id) await patientCall(remove, { path: remove === 'delete-patient' ? { patient_id: id } : { condition_id: id } });
};

/** A patient of the suite's own for the negative cases that need one (DEC-D3-13: deleted after). */
async function ownPatient(): Promise<string | undefined> {
  if (!runContext().allowDestructive) return undefined;
  const [sent] = (await import('fast-check')).default.sample(patientBody(REF_URL), {
    seed: runContext().seed + 3,
    numRuns: 1,
  });
  return idOf(await patientCall('create-patient', { body: json(sent) }));
}
const deletePatient = (id: string | undefined) => async () => {
  if (id) await patientCall('delete-patient', { path: { patient_id: id } });
};

describeDerivedRequests({
  'get-patient': { send: patientCall },
  'delete-patient': { send: patientCall },
  'delete-condition': { send: patientCall },
  // Negative cases of the bodies (DEC-D3-67), mutated from the bodies the suite sends.
  'create-patient': { send: patientCall, body: { base: patientBody(REF_URL), undo: undoCreate('delete-patient') } },
  'update-patient': async () => {
    const id = await ownPatient();
    return {
      send: patientCall,
      body: { base: patientBody(REF_URL).map((b) => ({ ...b, id: id ?? 'none' })), path: { patient_id: id ?? 'none' } },
      after: deletePatient(id),
    };
  },
  'create-condition': async () => {
    const id = await ownPatient();
    return {
      send: patientCall,
      body: { base: conditionBody().map((b) => conditionFor(b, id ?? 'none')), undo: undoCreate('delete-condition') },
      after: deletePatient(id),
    };
  },
});

describeFlow('patient lifecycle as generated sequences', STATE_SEQUENCE_OPERATIONS['patient-lifecycle'], () => {
  test('create, get, update, delete and conditions in generated orders keep the documented state', () =>
    verifyStateSequence('patient-lifecycle'));
});
