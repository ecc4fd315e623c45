import { personalValuesOf } from './personalData.ts';
import { describe, expect, test } from 'vitest';
import { MASK, Redactor } from './redact.ts';
import type { Exchange } from './exchange.ts';

const exchange = (over: Partial<Exchange> = {}): Exchange => ({
  id: 'x1',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 12.345,
  request: {
    method: 'POST',
    url: 'http://h/oauth/token?token=abc123456',
    headers: { Authorization: 'Bearer tok-very-secret', 'SU-SiteId': 'SITE001' },
    body: 'grant_type=client_credentials&client_id=me&client_secret=s3cr3t-value',
  },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json', 'set-cookie': 'sid=1' },
    bodyText: '{"access_token":"tok-very-secret","token_type":"Bearer","note":"tok-very-secret"}',
    size: 80,
    truncated: false,
  },
  ...over,
});

describe('Redactor', () => {
  const r = new Redactor(['tok-very-secret', 's3cr3t-value']);

  test('masks credential headers but keeps the scheme', () => {
    const out = r.exchange(exchange());
    expect(out.request.headers.Authorization).toBe(`Bearer ${MASK}`);
    expect(out.request.headers['SU-SiteId']).toBe('SITE001');
    expect(out.response?.headers['set-cookie']).toBe(MASK);
  });

  test('masks known secrets and token fields in bodies and URLs', () => {
    const text = JSON.stringify(r.exchange(exchange()));
    expect(text).not.toContain('tok-very-secret');
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain('abc123456');
    expect(text).toContain('client_id=me');
  });

  test('a redactor without the secret leaves an unknown free-text secret (shows the masking is value-driven)', () => {
    const bare = new Redactor([]);
    expect(bare.text('note tok-very-secret')).toContain('tok-very-secret');
    expect(bare.with(['tok-very-secret']).text('note tok-very-secret')).toBe(`note ${MASK}`);
  });

  test('keeps a transport error and omits the response when none arrived', () => {
    const out = r.exchange(exchange({ response: undefined, error: 'connect ECONNREFUSED' }));
    expect(out.status).toBeUndefined();
    expect(out.error).toBe('connect ECONNREFUSED');
  });
});

describe('Redactor: personal data', () => {
  const respond = (bodyText: string, contentType = 'application/json'): Exchange['response'] => ({
    status: 200,
    headers: { 'content-type': contentType },
    bodyText,
    size: bodyText.length,
    truncated: false,
  });
  const coverage = {
    resourceType: 'Coverage',
    id: 'COV-0007',
    contained: [
      {
        resourceType: 'Patient',
        id: 'patient-COV-0007',
        name: [{ family: 'Taylor', given: ['Sarah'] }],
        gender: 'female',
        birthDate: '1985-05-05',
        address: [{ line: ['22 Deansgate'], city: 'Manchester', postalCode: 'M3 4LZ', country: 'GB' }],
      },
      {
        resourceType: 'Organization',
        id: 'org-bup',
        name: 'Bupa',
        telecom: [{ system: 'email', value: 'members@bup.example' }],
      },
    ],
    identifier: [{ id: 'membershipNumber', value: 'BUP100001' }],
  };
  const findMember = (over: Partial<Exchange> = {}): Exchange => ({
    id: 'x2',
    operation: 'find-member-v1',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 3,
    request: {
      method: 'POST',
      url: 'http://h/membership/find-member',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: 'Bearer tok-very-secret' },
      body: 'insurerIdentifier=bup&membershipNumber=BUP100001',
    },
    response: respond(JSON.stringify(coverage)),
    ...over,
  });
  const personal = ['Taylor', 'Sarah', '1985-05-05', '22 Deansgate', 'M3 4LZ', 'BUP100001', 'Manchester'];

  test('a member exchange: form field and Coverage masked, JSON valid, insurer and ids kept, secrets masked', () => {
    const r = new Redactor(['tok-very-secret'], { personalData: true });
    const out = r.exchange(findMember());
    const text = JSON.stringify(out);
    for (const v of [...personal, 'tok-very-secret']) expect(text).not.toContain(v);
    expect(out.request.body).toBe(`insurerIdentifier=bup&membershipNumber=${MASK}`);
    const body = JSON.parse(out.response!.body) as typeof coverage;
    expect(body.contained[0]).toMatchObject({
      id: 'patient-COV-0007',
      gender: 'female',
      birthDate: MASK,
      name: [{ family: MASK, given: [MASK] }],
    });
    expect(body.contained[1]).toEqual(coverage.contained[1]);
    expect(body.identifier).toEqual([{ id: 'membershipNumber', value: MASK }]);
    expect(out.request.headers.Authorization).toBe(`Bearer ${MASK}`);
  });

  test('free text repeating a value the exchange carried is masked in every form, once the exchange was masked', () => {
    const r = new Redactor([], { personalData: true });
    const message =
      'Expected family "Taylor" born 1985-05-05 at 22%20Deansgate (22+Deansgate), received {"lastName":"Taylor"}';
    expect(r.text(message)).toBe(message); // nothing learned yet: masking is value-driven
    r.exchange(findMember());
    expect(r.text(message)).toBe(
      `Expected family "${MASK}" born ${MASK} at ${MASK} (${MASK}), received {"lastName":"${MASK}"}`,
    );
    expect(r.text('Manchester')).toBe('Manchester'); // a city alone is masked in place, never learned
  });

  test('a hospital-claim search: the query masked, the patient display masked, the day and hospital kept', () => {
    const r = new Redactor([], { personalData: true });
    const bundle = {
      resourceType: 'Bundle',
      entry: [
        {
          resource: {
            resourceType: 'Claim',
            id: 'HC-0005',
            patient: { display: 'John Smith' },
            item: [{ servicedDate: '2026-03-14' }],
          },
        },
      ],
    };
    const out = r.exchange({
      id: 'x3',
      operation: 'search-hospital-claims',
      startedAt: '',
      durationMs: 1,
      request: {
        method: 'GET',
        url: 'http://h/claims/claim/search/$hospital-claim?dateCompleted=2026-03-14&treatmentSiteName=St%20Elsewhere%20Hospital&patientLastName=Smith&patientDateOfBirth=1980-04-12',
        headers: {},
      },
      response: respond(JSON.stringify(bundle)),
    });
    expect(out.url).toBe(
      `http://h/claims/claim/search/$hospital-claim?dateCompleted=2026-03-14&treatmentSiteName=St%20Elsewhere%20Hospital&patientLastName=${MASK}&patientDateOfBirth=${MASK}`,
    );
    expect(JSON.parse(out.response!.body)).toEqual({
      resourceType: 'Bundle',
      entry: [
        {
          resource: {
            resourceType: 'Claim',
            id: 'HC-0005',
            patient: { display: MASK },
            item: [{ servicedDate: '2026-03-14' }],
          },
        },
      ],
    });
    expect(r.text('1 entry matches patient.display contains Smith (John Smith)')).toBe(
      `1 entry matches patient.display contains ${MASK} (${MASK})`,
    );
  });

  test('a patient created and read: request and response bodies masked; a pretty body keeps its layout', () => {
    const r = new Redactor([], { personalData: true });
    const sent = {
      resourceType: 'Patient',
      name: [{ family: 'Kn', given: ['Bcozoxih'], prefix: ['Mrs'] }],
      telecom: [{ system: 'email', value: 'bco.kn@example.org', use: 'home' }],
      birthDate: '1935-10-16',
    };
    const out = r.exchange({
      id: 'x4',
      operation: 'create-patient',
      startedAt: '',
      durationMs: 1,
      request: {
        method: 'POST',
        url: 'http://h/patients/patient/',
        headers: { 'Content-Type': 'application/fhir+json' },
        body: JSON.stringify(sent),
      },
      response: respond(JSON.stringify({ ...sent, id: '1001' }, null, 2), 'application/fhir+json'),
    });
    const expected = {
      resourceType: 'Patient',
      name: [{ family: MASK, given: [MASK], prefix: [MASK] }],
      telecom: [{ system: 'email', value: MASK, use: 'home' }],
      birthDate: MASK,
    };
    expect(JSON.parse(out.request.body!)).toEqual(expected);
    expect(JSON.parse(out.response!.body)).toEqual({ ...expected, id: '1001' });
    expect(out.response!.body).toContain('\n  "resourceType": "Patient"');
    expect(r.text('round trip lost Bcozoxih, bco.kn@example.org')).toBe(`round trip lost ${MASK}, ${MASK}`);
  });

  test('a body without personal data keeps its exact text; a malformed JSON body is masked as text', () => {
    const r = new Redactor([], { personalData: true, personalValues: ['Smith'] });
    const exact = '{"total": 1.50, "entry": []}';
    expect(r.exchange(findMember({ response: respond(exact) })).response!.body).toBe(exact);
    const broken = '{"resourceType": "Patient", "name": "Smith", ';
    expect(r.exchange(findMember({ response: respond(broken) })).response!.body).toBe(
      `{"resourceType": "Patient", "name": "${MASK}", `,
    );
  });

  test('JSON nested deeper than the stack (a hostile target) is masked as text, never a crash', () => {
    const r = new Redactor([], { personalData: true, personalValues: ['Taylor'] });
    const deep = `{"lastName":"Taylor","x":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const out = r.exchange(findMember({ response: respond(deep) }));
    expect(out.response!.body).toBe(deep.replace('Taylor', MASK));
  });

  test("Document 2 (public register) exchanges keep practitioners' names even when a member shares them; secrets still go", () => {
    const r = new Redactor(['tok-very-secret'], { personalData: true, personalValues: ['Smith'] });
    const out = r.exchange({
      id: 'x5',
      operation: 'lookup-practitioners',
      startedAt: '',
      durationMs: 1,
      request: {
        method: 'GET',
        url: 'http://h/reference/practitioner?text=Smith',
        headers: { Authorization: 'Bearer tok-very-secret' },
      },
      response: respond(
        '{"entry":[{"resource":{"resourceType":"Practitioner","name":[{"family":"Smith"}],"telecom":[{"value":"dr.smith@clinic.example"}]}}],"note":"tok-very-secret"}',
      ),
    });
    expect(out.url).toBe('http://h/reference/practitioner?text=Smith');
    expect(out.response!.body).toContain('"family":"Smith"');
    expect(out.response!.body).toContain('dr.smith@clinic.example');
    expect(out.response!.body).not.toContain('tok-very-secret');
  });

  test('configured personal values are masked from the start; copies made by with() share what any of them learns', () => {
    const r = new Redactor([], {
      personalData: true,
      personalValues: personalValuesOf({
        bills: { membershipNumber: 'BUP100001' },
        hospitalClaims: {
          search: {
            dateCompleted: '2026-03-14',
            treatmentSiteName: 'St Elsewhere Hospital',
            patientLastName: 'Smith',
            patientDateOfBirth: '1980-04-12',
          },
        },
      }),
    });
    expect(r.text('BUP100001 Smith 1980-04-12 St Elsewhere Hospital 2026-03-14')).toBe(
      `${MASK} ${MASK} ${MASK} St Elsewhere Hospital 2026-03-14`,
    );
    const copy = r.with(['tok-new-secret']);
    copy.exchange(findMember());
    expect(r.text('Taylor')).toBe(MASK); // learned by the copy, known to the original
    expect(copy.with([]).text('Sarah tok-new-secret')).toBe(`${MASK} ${MASK}`);
  });

  test('email addresses are masked in any text; with personal data off they stay', () => {
    expect(new Redactor([], { personalData: true }).text('contact alice.archer@sandbox.example')).toBe(
      `contact ${MASK}`,
    );
    expect(new Redactor([], { personalData: false }).text('contact alice.archer@sandbox.example')).toBe(
      'contact alice.archer@sandbox.example',
    );
  });

  test('evidence and counterexamples: personal fields masked by name and structure, register filters and secrets handled', () => {
    const r = new Redactor(['tok-very-secret'], { personalData: true });
    const evidence = {
      search: {
        patientLastName: 'Smith',
        patientDateOfBirth: '1980-04-12',
        treatmentSiteName: 'St Elsewhere Hospital',
      },
      membershipNumber: 'BUP100001',
      counterexample: {
        resourceType: 'Patient',
        name: [{ family: 'Xgrywxmd', given: ['Qska'] }],
        birthDate: '1970-01-01',
        gender: 'female',
      },
      filters: { family: 'Fra', page: 1 },
      note: 'tok-very-secret',
      practitioner: { resourceType: 'Practitioner', name: [{ family: 'tok-very-secret' }] },
    };
    expect(r.value(evidence)).toEqual({
      search: { patientLastName: MASK, patientDateOfBirth: MASK, treatmentSiteName: 'St Elsewhere Hospital' },
      membershipNumber: MASK,
      counterexample: {
        resourceType: 'Patient',
        name: [{ family: MASK, given: [MASK] }],
        birthDate: MASK,
        gender: 'female',
      },
      filters: { family: 'Fra', page: 1 },
      note: MASK,
      practitioner: { resourceType: 'Practitioner', name: [{ family: MASK }] },
    });
    // Evidence teaches nothing: a generated counterexample's values do not mask later text.
    expect(r.text('Xgrywxmd')).toBe('Xgrywxmd');
  });

  test('with personal data off (--evidence full) personal data stays everywhere and secrets are still masked', () => {
    const r = new Redactor(['tok-very-secret'], { personalData: false, personalValues: ['Taylor'] });
    const out = r.exchange(findMember());
    const text = JSON.stringify(out);
    for (const v of personal) expect(text).toContain(v);
    expect(text).not.toContain('tok-very-secret');
    expect(out.response!.body).toBe(JSON.stringify(coverage));
    expect(r.text('Taylor born 1985-05-05')).toBe('Taylor born 1985-05-05');
    expect(r.value({ lastName: 'Taylor', note: 'tok-very-secret' })).toEqual({ lastName: 'Taylor', note: MASK });
  });
});

describe('Redactor: personal data is masked by value, so messages stay readable (issue 22, item 7)', () => {
  // Fixtures of the sandbox's demo config (server/demo-config.json), the personal values a run
  // against the sandbox masks from its start (core cannot import the sandbox: quoted here).
  const fixtures = {
    findMemberV2: {
      single: { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' },
    },
    findMemberV1: { multiple: { insurerIdentifier: 'bup', lastName: 'Taylor', dateOfBirth: '1985-05-05' } },
    bills: { insurerid: 'bup', membershipNumber: 'BUP100001' },
  };
  const SECRETS = ['sandbox-secret', 'alice-password'];
  const run = () => Redactor.forRun({ secrets: SECRETS, evidence: 'masked', fixtures });
  const outcome = (diagnostics: string) =>
    JSON.stringify({
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'exception',
          details: { coding: [{ code: 'MSG_PARAM_INVALID', display: 'Parameter content invalid' }] },
          diagnostics,
        },
      ],
    });
  /** The random phase's Search Authorisation: a generated membership number (1 to 12 letters and digits) and `status=read`. */
  const searchAuthorisation = (membershipNumber: string): Exchange => ({
    id: 'a1',
    operation: 'search-authorisation',
    startedAt: '',
    durationMs: 1,
    request: {
      method: 'POST',
      url: 'http://h/authorisations',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: 'Bearer tok-1' },
      body: `insurerIdentifier=nuh&membershipNumber=${membershipNumber}&status=read`,
    },
    response: {
      status: 422,
      headers: { 'content-type': 'application/fhir+json' },
      bodyText: outcome('status read is not a known value'),
      size: 300,
      truncated: false,
    },
  });
  /** The patient lifecycle's create: a generated name. */
  const createPatient = (family: string, given: string): Exchange => {
    const body = JSON.stringify({
      resourceType: 'Patient',
      name: [{ family, given: [given] }],
      birthDate: '1931-02-03',
    });
    return {
      id: 'p1',
      operation: 'create-patient',
      startedAt: '',
      durationMs: 1,
      request: { method: 'POST', url: 'http://h/patients/patient/', headers: {}, body },
      response: {
        status: 201,
        headers: { 'content-type': 'application/fhir+json' },
        bodyText: body,
        size: 99,
        truncated: false,
      },
    };
  };
  /** Find Member v2 with a generated last name and the fixture's birth date. */
  const findMember = (lastName: string): Exchange => ({
    id: 'f1',
    operation: 'find-member-v2',
    startedAt: '',
    durationMs: 1,
    request: {
      method: 'POST',
      url: 'http://h/membership/v2',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `insurerIdentifier=ppp&firstInitial=J&lastName=${lastName}&dateOfBirth=1980-04-12`,
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      bodyText: '{"total":0}',
      size: 11,
      truncated: false,
    },
  });

  test('the three over-masked messages of the review read whole again; the generated values are still masked in their fields', () => {
    const r = run();
    // `val` was sent as a membership number, `ref` as a patient's family name: both were learned and,
    // as pieces of words, masked `invalid`, `value` and `refused` in every later message.
    const auth = r.exchange(searchAuthorisation('val'));
    const patient = r.exchange(createPatient('ref', 'Inval'));
    for (const message of [
      'Parameter content invalid',
      'status read is not a known value',
      'Expected deleted patient 1001 to be refused with 404, received HTTP 200',
    ])
      expect(r.text(message)).toBe(message);
    const issue = (JSON.parse(auth.response?.body ?? '{}') as { issue: Record<string, unknown>[] }).issue[0];
    expect(issue.diagnostics).toBe('status read is not a known value');
    expect(issue.details).toEqual({ coding: [{ code: 'MSG_PARAM_INVALID', display: 'Parameter content invalid' }] });
    expect(r.value({ display: 'Parameter content invalid', text: 'to be refused' })).toEqual({
      display: 'Parameter content invalid',
      text: 'to be refused',
    });
    // The values themselves: masked where they stand.
    expect(auth.request.body).toBe(`insurerIdentifier=nuh&membershipNumber=${MASK}&status=read`);
    expect(JSON.parse(patient.request.body ?? '{}')).toEqual({
      resourceType: 'Patient',
      name: [{ family: MASK, given: [MASK] }],
      birthDate: MASK,
    });
    expect(r.value({ membershipNumber: 'val', note: 'val' })).toEqual({ membershipNumber: MASK, note: 'val' });
  });

  test("common words survive in messages while the run's personal values are masked in them", () => {
    const r = run();
    // Generated values that are pieces of the words below (and whole tokens in the last message).
    r.exchange(searchAuthorisation('val'));
    r.exchange(createPatient('Inval', 'ceived'));
    r.exchange(findMember('Expec'));
    const words = [
      'Parameter content invalid',
      'status read is not a known value',
      'to be refused',
      'received',
      'valid',
      'InvalidId',
      'Expected HTTP 200, received HTTP 404',
    ];
    for (const w of words) expect(r.text(w)).toBe(w);
    expect(r.value({ messages: words })).toEqual({ messages: words });
    // Configured (fixtures) and learned (generated) personal values, each a whole token: masked.
    expect(
      r.text('Expected patient Inval ceived (Smith, born 1980-04-12, member BUP100001) as Expec; received HTTP 404'),
    ).toBe(`Expected patient ${MASK} ${MASK} (${MASK}, born ${MASK}, member ${MASK}) as ${MASK}; received HTTP 404`);
    expect(r.text('Taylor 1985-05-05 1931-02-03')).toBe(`${MASK} ${MASK} ${MASK}`);
  });

  test('secrets are still masked everywhere, inside a word and in free text too', () => {
    const r = run().with(['tok-obtained-1234']);
    expect(r.text('client sandbox-secret; xsandbox-secretx; alice-password.; Bearer tok-obtained-1234')).toBe(
      `client ${MASK}; x${MASK}x; ${MASK}.; Bearer ${MASK}`,
    );
    expect(r.value({ note: 'invalid alice-password', valid: true })).toEqual({ note: `invalid ${MASK}`, valid: true });
    const out = r.exchange(searchAuthorisation('val'));
    expect(out.request.headers.Authorization).toBe(`Bearer ${MASK}`);
  });

  test('a body masked as text (cut at the size cap) masks its personal members in place, short values too', () => {
    const r = run();
    const text =
      '{"resourceType":"Patient","name":[{"family":"Li","given":["Ian"]}],"birthDate":"1931-02-03","note":"valid';
    const out = r.exchange({
      ...createPatient('x', 'y'),
      response: {
        status: 200,
        headers: { 'content-type': 'application/fhir+json' },
        bodyText: text,
        size: 9_000_000,
        truncated: true,
      },
    });
    expect(out.response?.body).toBe(
      `{"resourceType":"Patient","name":[{"family":"${MASK}","given":["${MASK}"]}],"birthDate":"${MASK}","note":"valid`,
    );
  });
});

describe('Redactor: evidence cap per exchange', () => {
  const capped = (bodyText: string, truncated = false, size = Buffer.byteLength(bodyText)) =>
    new Redactor(['tok-very-secret'], { personalData: true, maxEvidenceBytes: 64 }).exchange(
      exchange({
        operation: 'get-patient',
        response: { status: 200, headers: { 'content-type': 'application/json' }, bodyText, size, truncated },
      }),
    );

  test('a body within the cap is kept whole; the runner default is 64 KiB', () => {
    expect(capped('{"a":1}').response?.body).toBe('{"a":1}');
    const run = Redactor.forRun({ secrets: [], evidence: 'masked', fixtures: {} });
    expect(run.options.maxEvidenceBytes).toBe(64 * 1024);
    const configured = Redactor.forRun({ secrets: [], evidence: 'full', fixtures: {}, http: { maxEvidenceBytes: 10 } });
    expect(configured.with(['x-secret']).options.maxEvidenceBytes).toBe(10);
  });

  test('a longer body is masked whole first, then cut, with a note of the bytes received', () => {
    const patient = JSON.stringify({
      resourceType: 'Patient',
      name: [{ family: 'Zebedee-Quorn', given: ['Ottoline'] }],
      note: `${'x'.repeat(40)}tok-very-secret${'y'.repeat(100)}`,
    });
    const body = capped(patient).response?.body ?? '';
    expect(body).not.toMatch(/Zebedee|Ottoline|tok-very/);
    expect(body).toMatch(
      new RegExp(`\\n…\\[truncated: 64 bytes kept as evidence, ${patient.length} bytes received\\]$`),
    );
  });

  test('a body cut at the size cap is masked as text; a secret across the cut is never half shown', () => {
    // The secret starts 58 bytes in and ends past the 64-byte cap.
    const body = capped(`{"x":"${'a'.repeat(52)}tok-very-secret${'b'.repeat(500)}`, true, 5_000_000).response?.body;
    expect(body).toBe(
      `{"x":"${'a'.repeat(52)}${MASK}bb\n…[truncated: 64 bytes kept as evidence, 5000000 bytes received]`,
    );
  });

  test('a request body is cut too, saying how many bytes were sent', () => {
    const out = new Redactor([], { maxEvidenceBytes: 8 }).exchange(
      exchange({ request: { method: 'POST', url: 'http://h/x', headers: {}, body: 'a=1&b=22222222222' } }),
    );
    expect(out.request.body).toBe('a=1&b=22\n…[truncated: 8 bytes kept as evidence, 17 bytes sent]');
  });
});
