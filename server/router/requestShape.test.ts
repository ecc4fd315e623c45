import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { priceRequest } from '../exampleCalls.ts';
import { paths, TestSandbox } from '../testSupport.ts';

const codeOf = (json: unknown): string | undefined =>
  (json as { issue?: { details?: { coding?: { code?: string }[] } }[] })?.issue?.[0]?.details?.coding?.[0]?.code;

const patient = {
  resourceType: 'Patient',
  name: [{ family: 'Shape', given: ['Test'] }],
  telecom: [{ system: 'phone', value: '01234567890', use: 'home' }],
  gender: 'female',
  birthDate: '1980-04-12',
};

describe('a body of the wrong documented shape is refused before anything is stored (DEC-D3-67)', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await TestSandbox.start();
  });
  afterAll(async () => {
    await sb.close();
  });

  test('create patient: a telecom without its value is 400 MSG_MISSING_MANDATORY_PARAM; the valid body is created', async () => {
    const bad = await sb.patient('POST', paths.createPatient, {
      ...patient,
      telecom: [{ system: 'phone', use: 'home' }],
    });
    expect([bad.status, codeOf(bad.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    expect(JSON.stringify(bad.json)).toContain('The body is not of the documented shape');
    const good = await sb.patient('POST', paths.createPatient, patient);
    expect(good.status).toBe(201);
  });

  test('update patient: a member of the wrong type is 422 INVALID_RESOURCE, and the stored patient is unchanged', async () => {
    const created = await sb.patient('POST', paths.createPatient, patient);
    const id = (created.json as { id: string }).id;
    const bad = await sb.patient('PUT', paths.updatePatient(id), {
      ...patient,
      id,
      gender: 'male',
      name: 'not a list',
    });
    expect([bad.status, codeOf(bad.json)]).toEqual([422, 'INVALID_RESOURCE']);
    const read = await sb.patient('GET', paths.patient(id));
    expect((read.json as { gender: string }).gender).toBe('female');
  });

  test('create condition: a note author of the wrong type is 400 MSG_INVALID_FORMAT', async () => {
    const created = await sb.patient('POST', paths.createPatient, patient);
    const id = (created.json as { id: string }).id;
    const bad = await sb.patient('POST', paths.condition, {
      resourceType: 'Condition',
      note: [{ text: 'x', authorReference: { reference: `patient/${id}`, display: 1234 } }],
    });
    expect([bad.status, codeOf(bad.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
  });

  test('set contract service: an asset context that is not a list is 400 MSG_INVALID_FORMAT; the documented body is taken', async () => {
    const good = priceRequest([{ system: 'ISC', code: 'SHAPE-SVC' }]);
    expect((await sb.contract('POST', paths.contractPrice, good)).status).toBe(200);
    const asset = good.term[0].asset[0];
    const bad = { ...good, term: [{ asset: [{ ...asset, valuedItem: 'SHAPE-SVC' }] }] };
    const answer = await sb.contract('POST', paths.contractPrice, bad);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });
});
