import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { REF_URL } from '../resources/urls.ts';
import { TestSandbox, errorCode, paths } from '../testSupport.ts';

type J = any;

// A fresh sandbox per test: the patient operations change state.
let sb: TestSandbox;
beforeEach(async () => {
  sb = await TestSandbox.start();
});
afterEach(() => sb.close());

const NEW_PATIENT = {
  resourceType: 'Patient',
  extension: [
    { url: `${REF_URL}/extension/patient/insurer`, valueString: 'bup' },
    { url: `${REF_URL}/extension/patient/registrationid`, valueString: 'REG-9001' },
  ],
  name: [{ family: 'Conformance', given: ['Casey'], prefix: ['Mx'] }],
  telecom: [
    { system: 'phone', value: '020 7946 0999', use: 'home' },
    { system: 'email', value: 'casey@example.org', use: 'home' },
  ],
  gender: 'other',
  birthDate: '1990-02-28',
  address: [{ type: 'physical', text: '5 Test Lane', line: ['5 Test Lane'], city: 'London', postalCode: 'N1 9AA' }],
};

const condition = (patientId: string) => ({
  resourceType: 'Condition',
  evidence: [
    {
      detail: [
        {
          display: 'scan.pdf',
          identifier: { id: 'ATT-9001', system: 'document-store', value: 'https://files.example/att/ATT-9001' },
        },
      ],
    },
  ],
  note: [{ text: 'Back pain', authorReference: { reference: `patient/${patientId}` } }],
});

const create = async (body: unknown = NEW_PATIENT) => sb.patient('POST', paths.createPatient, body);

describe('Create and get patient (4.4)', () => {
  test('create assigns an id, active true, ids on telecom and address; get returns the same Patient', async () => {
    const a = await create();
    expect(a.status).toBe(201);
    expect(a.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const p: J = a.json;
    expect(p).toMatchObject({ ...NEW_PATIENT, id: 'PAT-1001', active: true, deceasedBoolean: false });
    expect(p.telecom.map((t: J) => t.id)).toEqual(['TEL-1001', 'TEL-1002']);
    expect(p.address.map((x: J) => x.id)).toEqual(['ADDR-1001']);
    const got = await sb.patient('GET', paths.patient(p.id));
    expect([got.status, got.json]).toEqual([200, p]);
    expect((await create()).json).toMatchObject({ id: 'PAT-1002' });
  });

  test('an id in the create body is replaced by a new one', async () => {
    expect(((await create({ ...NEW_PATIENT, id: 'MINE' })).json as J).id).toBe('PAT-1001');
    expect((await sb.patient('GET', paths.patient('MINE'))).status).toBe(404);
  });

  test('seed: PAT-0001 active and PAT-0002 inactive at SITE001', async () => {
    expect((await sb.patient('GET', paths.patient('PAT-0001'))).json).toMatchObject({
      resourceType: 'Patient',
      id: 'PAT-0001',
      active: true,
      birthDate: '1980-04-12',
    });
    expect((await sb.patient('GET', paths.patient('PAT-0002'))).json).toMatchObject({ id: 'PAT-0002', active: false });
  });

  test('patients are per site: PAT-0001 is unknown at SITE006; a site the user does not reach is 403', async () => {
    const other = await sb.patient('GET', paths.patient('PAT-0001'), undefined, { site: 'SITE006' });
    expect([other.status, errorCode(other.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
    const created: J = (await sb.patient('POST', paths.createPatient, NEW_PATIENT, { site: 'SITE006' })).json;
    expect((await sb.patient('GET', paths.patient(created.id), undefined, { site: 'SITE006' })).status).toBe(200);
    expect((await sb.patient('GET', paths.patient(created.id))).status).toBe(404);
    const denied = await sb.patient('GET', paths.patient('PAT-0003'), undefined, { site: 'SITE002' });
    expect([denied.status, errorCode(denied.json)]).toEqual([403, 'MSG_FORBIDDEN']);
    expect(
      (
        await sb.patient('GET', paths.patient('PAT-0003'), undefined, {
          site: 'SITE002',
          token: await sb.userToken('carol'),
        })
      ).status,
    ).toBe(200);
  });

  test('a client token acts for its own site', async () => {
    expect((await sb.patient('GET', paths.patient('PAT-0001'), undefined, { token: await sb.token() })).status).toBe(
      200,
    );
    expect(
      (await sb.patient('GET', paths.patient('PAT-0001'), undefined, { token: await sb.token('sandbox-other') }))
        .status,
    ).toBe(403);
  });

  test.each([
    ['malformed JSON', '{"resourceType": "Patient",', 400, 'MSG_CANT_PARSE_CONTENT'],
    ['another resource', { resourceType: 'Condition' }, 400, 'INVALID_RESOURCE'],
    ['a bad birthDate', { ...NEW_PATIENT, birthDate: '28/02/1990' }, 422, 'MSG_DATE_FORMAT'],
    ['an impossible birthDate', { ...NEW_PATIENT, birthDate: '1990-02-30' }, 422, 'MSG_DATE_FORMAT'],
    ['name not an array', { ...NEW_PATIENT, name: { family: 'X' } }, 400, 'MSG_INVALID_FORMAT'],
    [
      'an unknown telecom system',
      { ...NEW_PATIENT, telecom: [{ system: 'fax', value: '1' }] },
      422,
      'MSG_PARAM_INVALID',
    ],
    [
      'an unknown extension',
      { ...NEW_PATIENT, extension: [{ url: `${REF_URL}/extension/patient/shoe-size`, valueString: '9' }] },
      422,
      'MSG_PARAM_INVALID',
    ],
  ] as [string, unknown, number, string][])('create with %s: %i %s', async (_label, body, status, code) => {
    const a = await create(body);
    expect([a.status, errorCode(a.json)]).toEqual([status, code]);
    expect((a.json as J).resourceType).toBe('OperationOutcome');
  });

  test('an unknown patient is 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE', async () => {
    const a = await sb.patient('GET', paths.patient('PAT-9999'));
    expect([a.status, errorCode(a.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
  });
});

describe('Mandatory headers (5; DEC-D3-07)', () => {
  test.each([
    ['token', { token: null }],
    ['unknown token', { token: 'forged' }],
    ['SU-SiteId', { site: null }],
    ['version header', { version: null }],
  ] as [string, Record<string, null | string>][])(
    'without %s: 401 MSG_UNAUTHORIZED OperationOutcome',
    async (_label, options) => {
      for (const call of [
        () => sb.patient('GET', paths.patient('PAT-0001'), undefined, options),
        () => sb.patient('POST', paths.createPatient, NEW_PATIENT, options),
      ]) {
        const a = await call();
        expect([a.status, errorCode(a.json), (a.json as J).resourceType]).toEqual([
          401,
          'MSG_UNAUTHORIZED',
          'OperationOutcome',
        ]);
      }
    },
  );

  test('another version is 422 MSG_PARAM_INVALID; a revoked or diary token 401', async () => {
    const a = await sb.patient('GET', paths.patient('PAT-0001'), undefined, { version: '2' });
    expect([a.status, errorCode(a.json)]).toEqual([422, 'MSG_PARAM_INVALID']);
    expect(
      (await sb.patient('GET', paths.patient('PAT-0001'), undefined, { token: await sb.diaryToken() })).status,
    ).toBe(401);
  });
});

describe('Update patient (4.4; DEC-D3-08, -09)', () => {
  test('PUT {base_url}/{id} replaces the patient; get returns the new values', async () => {
    const created: J = (await create()).json;
    const changed = {
      ...created,
      name: [{ family: 'Renamed', given: ['Casey'] }],
      telecom: [...created.telecom, { system: 'sms', value: '07700 900123' }],
      birthDate: '1991-03-01',
    };
    const a = await sb.patient('PUT', paths.updatePatient(created.id), changed);
    expect(a.status).toBe(200);
    const updated: J = a.json;
    expect(updated).toMatchObject({
      id: created.id,
      active: true,
      name: [{ family: 'Renamed' }],
      birthDate: '1991-03-01',
    });
    expect(updated.telecom.map((t: J) => t.id)).toEqual(['TEL-1001', 'TEL-1002', 'TEL-1003']);
    expect((await sb.patient('GET', paths.patient(created.id))).json).toEqual(updated);
  });

  test('an inactive patient is refused 422 INVALID_RESOURCE and stays unchanged', async () => {
    const before = (await sb.patient('GET', paths.patient('PAT-0002'))).json as J;
    const a = await sb.patient('PUT', paths.updatePatient('PAT-0002'), { ...before, name: [{ family: 'Changed' }] });
    expect([a.status, errorCode(a.json)]).toEqual([422, 'INVALID_RESOURCE']);
    expect((await sb.patient('GET', paths.patient('PAT-0002'))).json).toEqual(before);
  });

  test.each([
    ['no id in the body', (p: J) => ({ ...p, id: undefined }), 'PAT-0001', 'MISSING_MANDATORY_ELEMENT'],
    ['an id other than the path', (p: J) => p, 'PAT-0002', 'INVALID_RESOURCE'],
    ['an unknown patient', (p: J) => ({ ...p, id: 'PAT-9999' }), 'PAT-9999', 'REFERENCE_NOT_FOUND'],
    [
      'an unknown extension',
      (p: J) => ({ ...p, extension: [{ url: `${REF_URL}/extension/patient/x`, valueString: '1' }] }),
      'PAT-0001',
      'INVALID_EXTENSION',
    ],
    ['a bad birthDate', (p: J) => ({ ...p, birthDate: '1980-13-01' }), 'PAT-0001', 'INVALID_RESOURCE'],
  ] as [string, (p: J) => J, string, string][])('%s: 422 %s', async (_label, change, pathId, code) => {
    const p = (await sb.patient('GET', paths.patient('PAT-0001'))).json as J;
    const a = await sb.patient('PUT', paths.updatePatient(pathId), change(p));
    expect([a.status, errorCode(a.json)]).toEqual([422, code]);
    expect((await sb.patient('GET', paths.patient('PAT-0001'))).json).toEqual(p);
  });
});

describe('Delete patient and the patient state machine (3, 4.4; DEC-D3-08)', () => {
  test('create, get, delete (Parameters Status DELETED), get 404, delete again 404', async () => {
    const created: J = (await create()).json;
    const del = await sb.patient('DELETE', paths.patient(created.id));
    expect([del.status, del.json]).toEqual([
      200,
      { resourceType: 'Parameters', parameter: [{ name: 'Status', valueString: 'DELETED' }] },
    ]);
    const get = await sb.patient('GET', paths.patient(created.id));
    expect([get.status, errorCode(get.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
    expect((await sb.patient('DELETE', paths.patient(created.id))).status).toBe(404);
    const update = await sb.patient('PUT', paths.updatePatient(created.id), created);
    expect([update.status, errorCode(update.json)]).toEqual([422, 'REFERENCE_NOT_FOUND']);
  });

  test('a path without the id is 400 MSG_MISSING_MANDATORY_PARAM', async () => {
    for (const [method, path] of [
      ['DELETE', paths.createPatient],
      ['GET', paths.createPatient],
      ['PUT', '/patients'],
    ]) {
      const a = await sb.patient(method, path, method === 'PUT' ? NEW_PATIENT : undefined);
      expect([a.status, errorCode(a.json)], `${method} ${path}`).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    }
  });
});

describe('Conditions (2.5, 4.4; DEC-D3-08)', () => {
  test('create for an existing patient: an id and evidence references; delete answers DELETED', async () => {
    const a = await sb.patient('POST', paths.condition, condition('PAT-0001'));
    expect(a.status).toBe(201);
    const c: J = a.json;
    expect(c).toMatchObject({ resourceType: 'Condition', id: 'COND-1001', note: condition('PAT-0001').note });
    expect(c.evidence[0].detail[0]).toEqual({
      ...condition('PAT-0001').evidence[0].detail[0],
      reference: 'DocumentReference/ATT-9001',
    });
    const del = await sb.patient('DELETE', paths.conditionId(c.id));
    expect([del.status, del.json]).toEqual([
      200,
      { resourceType: 'Parameters', parameter: [{ name: 'Status', valueString: 'DELETED' }] },
    ]);
    expect((await sb.patient('DELETE', paths.conditionId(c.id))).status).toBe(404);
    expect((await sb.patient('DELETE', paths.conditionId('COND-0001'))).status).toBe(200);
  });

  test('an unknown or deleted patient is 422 MSG_REFERENCE_ID_NOT_FOUND', async () => {
    const unknown = await sb.patient('POST', paths.condition, condition('PAT-9999'));
    expect([unknown.status, errorCode(unknown.json)]).toEqual([422, 'MSG_REFERENCE_ID_NOT_FOUND']);
    const created: J = (await create()).json;
    expect((await sb.patient('POST', paths.condition, condition(created.id))).status).toBe(201);
    await sb.patient('DELETE', paths.patient(created.id));
    const gone = await sb.patient('POST', paths.condition, condition(created.id));
    expect([gone.status, errorCode(gone.json)]).toEqual([422, 'MSG_REFERENCE_ID_NOT_FOUND']);
    const otherSite = await sb.patient('POST', paths.condition, condition('PAT-0003'));
    expect(otherSite.status).toBe(422);
  });

  test.each([
    ['malformed JSON', '{', 400, 'MSG_CANT_PARSE_CONTENT'],
    ['no note', { resourceType: 'Condition' }, 400, 'MSG_MISSING_MANDATORY_PARAM'],
    [
      'a note without text',
      { resourceType: 'Condition', note: [{ authorReference: { reference: 'patient/PAT-0001' } }] },
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    ],
    ['a note without author', { resourceType: 'Condition', note: [{ text: 'x' }] }, 400, 'MSG_MISSING_MANDATORY_PARAM'],
    [
      'an author that is no patient reference',
      { resourceType: 'Condition', note: [{ text: 'x', authorReference: { reference: 'Practitioner/PR-0001' } }] },
      400,
      'MSG_INVALID_FORMAT',
    ],
    [
      'evidence detail without identifier',
      { ...condition('PAT-0001'), evidence: [{ detail: [{ display: 'a.pdf' }] }] },
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    ],
    ['another resource', { resourceType: 'Patient' }, 400, 'INVALID_RESOURCE'],
  ] as [string, unknown, number, string][])('%s: %i %s', async (_label, body, status, code) => {
    const a = await sb.patient('POST', paths.condition, body);
    expect([a.status, errorCode(a.json)]).toEqual([status, code]);
  });

  test('deleting a patient deletes its conditions', async () => {
    expect((await sb.patient('DELETE', paths.patient('PAT-0001'))).status).toBe(200);
    expect((await sb.patient('DELETE', paths.conditionId('COND-0001'))).status).toBe(404);
  });
});
