import { describe, expect, test } from 'vitest';
import {
  FREE_TEXT_MINIMUM,
  isPublicOperation,
  MASK,
  maskEmails,
  maskParameters,
  maskPersonalJson,
  maskPersonalMembers,
  maskUrlParameters,
  personalParameter,
  PersonalValues,
  personalValuesOf,
  type PersonalKind,
} from './personalData.ts';

/** Every string of a JSON value, for "is it still there" assertions. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (typeof v === 'object' && v !== null) return Object.values(v).flatMap(strings);
  return [];
}

/** The paths of every leaf, to prove the shape is kept. */
function shape(v: unknown, path = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((item, i) => shape(item, `${path}[${i}]`));
  if (typeof v === 'object' && v !== null) return Object.entries(v).flatMap(([k, item]) => shape(item, `${path}.${k}`));
  return [path];
}

function masked<T>(v: T, humanNames = true): { out: T; learned: [string, PersonalKind][] } {
  const learned: [string, PersonalKind][] = [];
  const out = maskPersonalJson(v, { learn: (value, kind) => learned.push([value, kind]), humanNames });
  // JSON stays valid and keeps its shape.
  expect(JSON.parse(JSON.stringify(out))).toEqual(out);
  expect(shape(out)).toEqual(shape(v));
  return { out, learned };
}

const REF = 'https://ref.example';

const coverage = {
  resourceType: 'Coverage',
  id: 'COV-0001',
  contained: [
    {
      resourceType: 'Patient',
      id: 'patient-COV-0001',
      extension: [
        { url: `${REF}/extension/genderIdentity`, valueString: 'Man' },
        { url: `${REF}/extension/otherInitials`, valueString: 'R' },
      ],
      name: [{ family: 'Smith', given: ['John'] }],
      gender: 'male',
      birthDate: '1980-04-12',
      address: [
        {
          line: ['1 Horse Guards Road'],
          city: 'London',
          district: 'Westminster',
          state: 'Greater London',
          postalCode: 'SW1A 2HQ',
          country: 'GB',
        },
      ],
    },
    {
      resourceType: 'Organization',
      id: 'org-ppp',
      name: 'AXA PPP Healthcare',
      telecom: [
        { system: 'email', value: 'members@ppp.example' },
        { system: 'phone', value: '+44 20 7946 0001' },
      ],
    },
  ],
  extension: [
    { url: `${REF}/extension/groupId`, valueString: 'GRP-PPP-01' },
    { url: `${REF}/extension/benefitLimit`, valueMoney: { value: 100000, currency: 'GBP' } },
    { url: `${REF}/extension/expiryDate`, valueDateTime: '2026-12-31T23:59:59+00:00' },
  ],
  identifier: [{ id: 'membershipNumber', value: 'PPP100001' }],
  beneficiary: { reference: '#patient-COV-0001' },
  period: { start: '2026-01-01T00:00:00+00:00', end: '2026-12-31T23:59:59+00:00' },
  payor: [{ reference: '#org-ppp' }],
};

const patient = {
  resourceType: 'Patient',
  id: 'PAT-0001',
  extension: [
    { url: `${REF}/extension/patient/insurer`, valueString: 'bup' },
    { url: `${REF}/extension/patient/registrationid`, valueString: 'REG-0001' },
    { url: `${REF}/extension/patient/authorizationno`, valueString: 'AUTH-0001' },
  ],
  active: true,
  name: [{ family: 'Smith', given: ['John'], prefix: ['Mr'] }],
  telecom: [
    { id: 'TEL-0001', system: 'phone', value: '020 7946 0001', use: 'home' },
    { id: 'TEL-0002', system: 'email', value: 'john.smith@example.org', use: 'home' },
  ],
  gender: 'male',
  birthDate: '1980-04-12',
  deceasedBoolean: false,
  address: [
    {
      id: 'ADDR-0001',
      type: 'physical',
      text: '1 High Street, London, SW1A 1AA',
      line: ['1 High Street'],
      city: 'London',
      postalCode: 'SW1A 1AA',
    },
  ],
};

const hospitalClaims = {
  resourceType: 'Bundle',
  type: 'collection',
  total: 1,
  meta: {
    tag: [
      { code: 'page', display: '1' },
      { code: 'count', display: '10' },
      { code: 'maxCount', display: '1' },
    ],
  },
  entry: [
    {
      fullUrl: 'https://h/claims/claim/HC-0005/encounter/ENC-0005',
      resource: {
        resourceType: 'Encounter',
        id: 'ENC-0005',
        episodeOfCare: [{ extension: [{ url: 'setting', valueString: 'Day case' }] }],
      },
    },
    {
      fullUrl: 'https://h/claims/claim/HC-0005',
      resource: {
        resourceType: 'Claim',
        id: 'HC-0005',
        patient: { display: 'John Smith' },
        insurer: {
          id: 'ppp',
          identifier: { system: `${REF}/insurerIdentifier`, value: 'ppp' },
          display: 'AXA PPP Healthcare',
        },
        procedure: [{ date: '2026-03-14T09:30:00+00:00' }],
        item: [{ servicedDate: '2026-03-14', encounter: [{ id: 'ENC-0005' }] }],
      },
    },
  ],
};

const bill = {
  resourceType: 'Claim',
  id: 'BILL-0001',
  contained: [
    { resourceType: 'Encounter', id: 'encounter', participant: [{ individual: { display: 'Mr Adam Hale' } }] },
    {
      resourceType: 'Invoice',
      id: 'invoice',
      identifier: [{ id: 'InvoiceNumber', system: `${REF}/invoiceNumber`, value: 'INV-B-0001' }],
      date: '2026-01-12',
      totalNet: { value: 839.25 },
    },
    {
      resourceType: 'Patient',
      id: 'patient',
      identifier: [
        { id: 'HospitalNumber', system: `${REF}/hospitalNumber`, value: 'HN007001' },
        { id: 'NHSNumber', system: 'https://fhir.nhs.uk/Id/nhs-number', value: '9434765019' },
      ],
      name: [{ family: 'Taylor', given: ['Sarah'] }],
      gender: 'female',
      birthDate: '1985-05-05',
      generalPractitioner: [{ reference: '#gp' }],
    },
    {
      resourceType: 'Practitioner',
      id: 'gp',
      identifier: [{ id: 'GPCode', system: `${REF}/gpCode`, value: 'G8000003' }],
      name: [{ family: 'Baker', given: ['Helen'], prefix: ['Dr'] }],
    },
    { resourceType: 'Coverage', id: 'coverage', subscriberId: 'BUP100001' },
  ],
  extension: [
    { url: `${REF}/extension/Claim/ClaimStatus`, valueString: 'Live' },
    { url: `${REF}/extension/Claim/IsArchived`, valueBoolean: false },
  ],
  patient: { reference: '#patient' },
  created: '2026-01-14T10:00:00+00:00',
  total: { value: 839.25, code: 'GBP' },
};

describe('query and form parameters', () => {
  test('Find Member search fields are masked by name; the insurer, sex and policy date are kept', () => {
    const learned: string[] = [];
    const out = maskParameters(
      'insurerIdentifier=nuh&firstInitial=A&lastName=Jones&dateOfBirth=1975-09-30&sex=Female&postCode=AB1+2CD&policyActiveOn=2026-06-01',
      (v) => learned.push(v),
    );
    expect(out).toBe(
      `insurerIdentifier=nuh&firstInitial=${MASK}&lastName=${MASK}&dateOfBirth=${MASK}&sex=Female&postCode=${MASK}&policyActiveOn=2026-06-01`,
    );
    expect(learned).toEqual(['A', 'Jones', '1975-09-30', 'AB1 2CD']);
  });

  test('an empty or absent value stays as sent (it is evidence, not data)', () => {
    expect(maskParameters('lastName=&dateOfBirth&insurerIdentifier=ppp')).toBe(
      'lastName=&dateOfBirth&insurerIdentifier=ppp',
    );
  });

  test('hospital-claim search: patient name and birth date masked, the day and the hospital kept', () => {
    const url =
      'http://h/claims/claim/search/$hospital-claim?dateCompleted=2026-03-14&treatmentSiteName=St+Elsewhere+Hospital&patientLastName=Smith&patientDateOfBirth=1980-04-12#x';
    expect(maskUrlParameters(url)).toBe(
      `http://h/claims/claim/search/$hospital-claim?dateCompleted=2026-03-14&treatmentSiteName=St+Elsewhere+Hospital&patientLastName=${MASK}&patientDateOfBirth=${MASK}#x`,
    );
  });

  test('bill search: the membership number masked, the insurer and invoice number kept', () => {
    expect(
      maskUrlParameters(
        'http://h/claims/claim/search?insurerid=bup&membershipNumber=BUP100001&invoiceNumber=INV-B-0001',
      ),
    ).toBe(`http://h/claims/claim/search?insurerid=bup&membershipNumber=${MASK}&invoiceNumber=INV-B-0001`);
    expect(maskUrlParameters('http://h/claims/claim/BILL-0001/false')).toBe('http://h/claims/claim/BILL-0001/false');
  });

  test('practitioner and address searches query public data: their parameters are not personal', () => {
    for (const name of [
      'family',
      'given',
      'address-postalcode',
      'postcode',
      'text',
      'insurerIdentifier',
      'page',
      'count',
      'sex',
    ])
      expect(personalParameter(name)).toBeUndefined();
    expect(maskUrlParameters('http://h/register/practitioner?family=Smith&given=John&address-postalcode=SW1A')).toBe(
      'http://h/register/practitioner?family=Smith&given=John&address-postalcode=SW1A',
    );
    expect(personalParameter('patientName')).toBe('name');
  });
});

describe('JSON bodies', () => {
  test('a member (Coverage): name, birth date, address, membership number and other initials are masked', () => {
    const { out, learned } = masked(coverage);
    const left = strings(out);
    for (const v of [
      'Smith',
      'John',
      '1980-04-12',
      '1 Horse Guards Road',
      'London',
      'Westminster',
      'Greater London',
      'SW1A 2HQ',
      'PPP100001',
      'R',
    ])
      expect(left).not.toContain(v);
    expect(out.contained[0].name).toEqual([{ family: MASK, given: [MASK] }]);
    expect(learned).toEqual(
      expect.arrayContaining([
        ['Smith', 'name'],
        ['1980-04-12', 'value'],
        ['SW1A 2HQ', 'value'],
        ['PPP100001', 'value'],
        ['London', 'weak'],
      ]),
    );
  });

  test('a member (Coverage): ids, codes, gender, dates, money and the insurer organisation are kept', () => {
    const { out } = masked(coverage);
    expect(out.id).toBe('COV-0001');
    expect(out.contained[0]).toMatchObject({
      id: 'patient-COV-0001',
      gender: 'male',
      extension: [{ valueString: 'Man' }, {}],
    });
    expect(out.contained[0].address?.[0].country).toBe('GB');
    expect(out.contained[1]).toEqual(coverage.contained[1]); // insurer name and contact: not a person
    expect(out.extension).toEqual(coverage.extension);
    expect(out.identifier[0].id).toBe('membershipNumber');
    expect(out.period).toEqual(coverage.period);
  });

  test('a Patient: name, telecom values, birth date, address and registration id masked; the rest kept', () => {
    const { out } = masked(patient);
    expect(out.name).toEqual([{ family: MASK, given: [MASK], prefix: [MASK] }]);
    expect(out.telecom).toEqual([
      { id: 'TEL-0001', system: 'phone', value: MASK, use: 'home' },
      { id: 'TEL-0002', system: 'email', value: MASK, use: 'home' },
    ]);
    expect(out.birthDate).toBe(MASK);
    expect(out.address).toEqual([
      { id: 'ADDR-0001', type: 'physical', text: MASK, line: [MASK], city: MASK, postalCode: MASK },
    ]);
    expect(out.extension.map((e) => e.valueString)).toEqual(['bup', MASK, 'AUTH-0001']);
    expect(out).toMatchObject({
      resourceType: 'Patient',
      id: 'PAT-0001',
      active: true,
      gender: 'male',
      deceasedBoolean: false,
    });
  });

  test('a hospital claim: the patient display is masked; dates, insurer, ids, paging kept', () => {
    const { out, learned } = masked(hospitalClaims);
    const claim = out.entry[1].resource as (typeof hospitalClaims.entry)[1]['resource'];
    expect(claim.patient).toEqual({ display: MASK });
    expect(learned).toEqual([['John Smith', 'name']]);
    expect(claim.insurer).toEqual(hospitalClaims.entry[1].resource.insurer);
    expect(claim.item).toEqual(hospitalClaims.entry[1].resource.item);
    expect(claim.procedure).toEqual(hospitalClaims.entry[1].resource.procedure);
    expect(out.meta).toEqual(hospitalClaims.meta);
    expect(out.entry[0]).toEqual(hospitalClaims.entry[0]);
  });

  test('a bill: patient identifiers, name, birth date and subscriber id masked; the GP (register data), invoice and claim kept', () => {
    const { out } = masked(bill);
    const [encounter, invoice, pat, gp, cov] = out.contained as Record<string, unknown>[];
    expect(pat).toMatchObject({
      name: [{ family: MASK, given: [MASK] }],
      birthDate: MASK,
      gender: 'female',
      generalPractitioner: [{ reference: '#gp' }],
    });
    expect(pat.identifier).toEqual([
      { id: 'HospitalNumber', system: `${REF}/hospitalNumber`, value: MASK },
      { id: 'NHSNumber', system: 'https://fhir.nhs.uk/Id/nhs-number', value: MASK },
    ]);
    expect(cov).toEqual({ resourceType: 'Coverage', id: 'coverage', subscriberId: MASK });
    expect(gp).toEqual(bill.contained[3]);
    expect(encounter).toEqual(bill.contained[0]);
    expect(invoice).toEqual(bill.contained[1]);
    expect(out.extension).toEqual(bill.extension);
    expect(out.total).toEqual(bill.total);
  });

  test('a pre-authorisation: the membershipNumber and patientName extensions masked, codes kept', () => {
    const claim = {
      resourceType: 'Claim',
      id: 'PA-0001',
      use: 'preauthorization',
      extension: [
        { url: `${REF}/extension/caseCode`, valueString: 'CASE-0001' },
        { url: `${REF}/extension/membershipNumber`, valueString: 'NUH200001' },
        { url: `${REF}/extension/patientName`, valueString: 'Emma Clarke' },
        { url: `${REF}/extension/preAuthStatus`, valueString: 'Active' },
      ],
    };
    expect(masked(claim).out.extension.map((e) => e.valueString)).toEqual(['CASE-0001', MASK, MASK, 'Active']);
  });

  test('a remittance batch claim and a remittance detail: patient names, registration and membership numbers masked', () => {
    const batch = {
      providers: [
        {
          providerName: 'Harley Street Clinic',
          claims: [
            {
              chClaimNo: 'CH-1-1-001',
              invoiceNo: 'INV-1-1-01',
              registrationNo: 'REG000217',
              patientName: { title: 'Mrs', given: 'Alice', middle: 'May', family: 'Jones' },
            },
            { chClaimNo: 'CH-1-1-002', registrationNo: 'REG000248', patientNameUnstruct: 'HENRY WRIGHT' },
          ],
        },
      ],
    };
    const out = masked(batch).out.providers[0];
    expect(out.providerName).toBe('Harley Street Clinic');
    expect(out.claims[0]).toEqual({
      chClaimNo: 'CH-1-1-001',
      invoiceNo: 'INV-1-1-01',
      registrationNo: MASK,
      patientName: { title: MASK, given: MASK, middle: MASK, family: MASK },
    });
    expect(out.claims[1]).toEqual({ chClaimNo: 'CH-1-1-002', registrationNo: MASK, patientNameUnstruct: MASK });
    const detail = {
      resourceType: 'ClaimResponse',
      id: 'RD-0001-01',
      contained: [
        {
          resourceType: 'Patient',
          id: 'patient',
          identifier: [{ system: 'https://c/membershipNumber', value: 'BUP300021' }],
          name: [{ family: 'Walker', given: ['Thomas'], prefix: ['Mr'] }],
        },
      ],
      identifier: [
        { system: 'https://c/insurerBillNumber', value: 'IBN-0001-01' },
        { system: 'https://c/hospitalNumber', value: 'HN005021' },
      ],
    };
    const d = masked(detail).out;
    expect(strings(d)).not.toEqual(expect.arrayContaining(['BUP300021']));
    expect(d.identifier.map((i) => i.value)).toEqual(['IBN-0001-01', MASK]);
  });

  test('an account user: names, title and login email masked; ids, status and sites kept', () => {
    const user = {
      userId: 'U-1001',
      title: 'Dr',
      firstName: 'Alice',
      lastName: 'Archer',
      middlename: 'Jane',
      loginEmailAddress: 'alice.archer@sandbox.example',
      status: 'ACTIVE',
      sites: [{ siteId: 'SITE001', siteName: 'Green Lane Practice' }],
    };
    expect(masked(user).out).toEqual({
      ...user,
      title: MASK,
      firstName: MASK,
      lastName: MASK,
      middlename: MASK,
      loginEmailAddress: MASK,
    });
    const info = {
      user: { id: 'U-1001', title: 'Dr', family: 'Archer', given: 'Alice', loginEmailAddress: 'a@b.example' },
      site: { id: 'SITE001', name: 'Main' },
    };
    expect(masked(info).out).toEqual({
      user: { id: 'U-1001', title: MASK, family: MASK, given: MASK, loginEmailAddress: MASK },
      site: info.site,
    });
  });

  test('practitioners, practitioner roles and locations are public register data: nothing is masked', () => {
    const register = {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        {
          resource: {
            resourceType: 'Practitioner',
            id: 'PR-0001',
            name: [{ family: 'Smith', given: ['John'], prefix: ['Dr'] }],
            telecom: [{ id: 'email', value: 'j.smith@clinic.example' }],
            address: [{ text: '1 Harley St', postalCode: 'W1G 9PF' }],
            birthDate: '12.04.1970',
          },
        },
        {
          resource: {
            resourceType: 'PractitionerRole',
            id: 'PRR-1',
            practitioner: { reference: 'Practitioner/PR-0001', display: 'Dr John Smith' },
          },
        },
        {
          resource: {
            resourceType: 'Location',
            id: 'L-1',
            name: 'London Clinic',
            address: { line: ['1 King St'], postalCode: 'W1' },
          },
        },
      ],
    };
    expect(masked(register).out).toEqual(register);
    const contract = {
      resourceType: 'Contract',
      id: 'CT-1',
      subject: [{ reference: 'Practitioner/PR-0001', display: 'Dr Alice Smith' }],
    };
    let freed = 0;
    expect(
      maskPersonalJson(contract, {
        free: (s) => {
          freed++;
          return s.replace('Smith', MASK);
        },
      }),
    ).toEqual({
      ...contract,
      subject: [{ reference: 'Practitioner/PR-0001', display: 'Dr Alice Smith' }],
    });
    expect(freed).toBe(2); // resourceType and id; the practitioner reference is kept
  });

  test('numbers of personal fields are masked too; booleans, null and empty strings are kept', () => {
    const { out } = masked({
      membershipNumber: 100001,
      lastName: '',
      patient: { display: null },
      resourceType: 'Patient',
      birthDate: '',
      active: false,
    });
    expect(out).toEqual({
      membershipNumber: MASK,
      lastName: '',
      patient: { display: null },
      resourceType: 'Patient',
      birthDate: '',
      active: false,
    });
  });

  test('odd member names (`__proto__`, an extension url ending in `constructor`) are data like any other', () => {
    const odd = JSON.parse(
      '{"__proto__":{"lastName":"Smith"},"extension":[{"url":"https://x/constructor","valueString":"kept"}]}',
    ) as Record<string, unknown>;
    const out = maskPersonalJson(odd);
    expect(JSON.stringify(out)).toBe(
      `{"__proto__":{"lastName":"${MASK}"},"extension":[{"url":"https://x/constructor","valueString":"kept"}]}`,
    );
  });

  test('a bare string where a name, address or telecom object is expected is masked too', () => {
    const { out } = masked({
      resourceType: 'Patient',
      name: 'John Smith',
      address: '1 High Street',
      telecom: ['020 7946 0001'],
    });
    expect(out).toEqual({ resourceType: 'Patient', name: MASK, address: MASK, telecom: [MASK] });
  });

  test('evidence mode: a lone family/given object (a register filter) is kept; unambiguous names are not', () => {
    const evidence = {
      filters: { family: 'Fra', given: 'Jo' },
      lastName: 'Smith',
      membershipNumber: 'BUP100001',
      search: {
        patientLastName: 'Smith',
        patientDateOfBirth: '1980-04-12',
        treatmentSiteName: 'St Elsewhere Hospital',
      },
    };
    expect(masked(evidence, false).out).toEqual({
      filters: { family: 'Fra', given: 'Jo' },
      lastName: MASK,
      membershipNumber: MASK,
      search: { patientLastName: MASK, patientDateOfBirth: MASK, treatmentSiteName: 'St Elsewhere Hospital' },
    });
    expect(masked(evidence, true).out.filters).toEqual({ family: MASK, given: MASK });
  });

  test('free strings outside public resources go through `free`, strings inside them through `kept`', () => {
    const seen: string[] = [];
    const kept: string[] = [];
    const remember =
      (into: string[]) =>
      (s: string): string => {
        into.push(s);
        return s;
      };
    maskPersonalJson(coverage, { free: remember(seen), kept: remember(kept) });
    expect(seen).toEqual(expect.arrayContaining(['COV-0001', 'male', 'GRP-PPP-01']));
    expect(seen).not.toContain('Smith');
    expect(kept).toEqual(expect.arrayContaining(['AXA PPP Healthcare', 'members@ppp.example']));
  });
});

describe('learned values and free text', () => {
  test('learned values are masked raw, URL-encoded (%20 and +) and JSON-escaped, longest first', () => {
    const values = new PersonalValues();
    values.learn('1 Horse Guards Road');
    values.learn('O"Brien', 'name');
    const text = 'a 1 Horse Guards Road b 1%20Horse%20Guards%20Road c 1+Horse+Guards+Road d "O\\"Brien" e';
    expect(values.mask(text)).toBe(`a ${MASK} b ${MASK} c ${MASK} d "${MASK}" e`);
  });

  test('a name is learned whole and word by word, without titles; weak values and short ones are not learned', () => {
    const values = new PersonalValues();
    values.learn('Mrs Alice Jones', 'name');
    values.learn('London', 'weak');
    values.learn('Al', 'name');
    values.learn('1234', 'value');
    values.learn('12345', 'value');
    expect(values.has('Mrs Alice Jones') && values.has('Alice') && values.has('Jones') && values.has('12345')).toBe(
      true,
    );
    expect(values.has('Mrs') || values.has('London') || values.has('Al') || values.has('1234')).toBe(false);
    expect(values.mask('Jones, Alice lives in London, page 1234 of 12345')).toBe(
      `${MASK}, ${MASK} lives in London, page 1234 of ${MASK}`,
    );
  });

  test('a learned value is masked only as a whole token, never as a piece of a word (issue 22, item 7)', () => {
    const values = new PersonalValues();
    // Generated names and numbers (letters and digits, as the random phase sends them) that are
    // pieces of the words of the suite's own messages, and one member's real name.
    for (const v of ['alid', 'ceive', 'Expec', 'nown', 'efuse', 'onten', 'Smith', 'nvalidI']) values.learn(v, 'name');
    const message =
      'Parameter content invalid; status read is not a known value; to be refused; valid InvalidId; ' +
      'Expected HTTP 200, received HTTP 404; the Smithsonian, Goldsmith';
    expect(values.mask(message)).toBe(message);
    // The same values standing alone are masked, whatever punctuation surrounds them.
    expect(values.mask('Smith, (alid) "ceive" [nown] Smith.')).toBe(`${MASK}, (${MASK}) "${MASK}" [${MASK}] ${MASK}.`);
  });

  test('where a token ends: punctuation, a URL or JSON escape; a digit edge needs only no digit beside it', () => {
    const values = new PersonalValues();
    values.learn('Smith', 'name');
    values.learn('1980-04-12');
    values.learn('BUP100001');
    // An escaped space or comma ends a token; an escaped letter (é is %C3%A9) does not.
    expect(values.mask('given=John%20Smith&x=%2CSmith&y=Jos%C3%A9Smith')).toBe(
      `given=John%20${MASK}&x=%2C${MASK}&y=Jos%C3%A9Smith`,
    );
    expect(values.mask('"Dear\\nSmith\\tSmith"')).toBe(`"Dear\\n${MASK}\\t${MASK}"`);
    // A birth date inside a date-time or after a comparator is still masked; not inside a longer number.
    expect(values.mask('born 1980-04-12T09:30:00Z, birthdate=eq1980-04-12, 11980-04-123')).toBe(
      `born ${MASK}T09:30:00Z, birthdate=eq${MASK}, 11980-04-123`,
    );
    expect(values.mask('member BUP100001 (not XBUP100001, nor BUP1000012)')).toBe(
      `member ${MASK} (not XBUP100001, nor BUP1000012)`,
    );
  });

  test(`values of fewer than ${FREE_TEXT_MINIMUM} characters are masked only in their field, never in free text`, () => {
    const values = new PersonalValues();
    values.learn('Ian Scott', 'name');
    values.learn('val', 'name');
    values.learn('ref');
    expect([
      values.has('Ian Scott'),
      values.has('Scott'),
      values.has('Ian'),
      values.has('val'),
      values.has('ref'),
    ]).toEqual([true, true, false, false, false]);
    expect(values.mask('Ian Scott; Ian; a val; the ref')).toBe(`${MASK}; Ian; a val; the ref`);
    // In their field they are masked as any other personal value.
    const { out } = masked({ resourceType: 'Patient', name: [{ family: 'val', given: ['Ian'] }], lastName: 'ref' });
    expect(out).toEqual({ resourceType: 'Patient', name: [{ family: MASK, given: [MASK] }], lastName: MASK });
  });

  test('a body masked as text (malformed, cut) keeps its personal members masked in place, short values too', () => {
    const cut =
      '{"resourceType":"Patient","id":"PAT-9","name":[{"family":"Li","given":["Ian", "Jo"],"text":"x"}],' +
      '"birthDate":"1980-04-12","lastName":"","status":"val","membershipNumber":12345,"note":"Li\\"s","firstName":"Ia';
    expect(maskPersonalMembers(cut)).toBe(
      `{"resourceType":"Patient","id":"PAT-9","name":[{"family":"${MASK}","given":["${MASK}", "${MASK}"],"text":"x"}],` +
        `"birthDate":"${MASK}","lastName":"","status":"val","membershipNumber":"${MASK}","note":"Li\\"s","firstName":"Ia`,
    );
  });

  test('without learned values text is unchanged (masking is value-driven)', () => {
    expect(new PersonalValues().mask('John Smith 1980-04-12')).toBe('John Smith 1980-04-12');
  });

  test("the email search stays linear on a huge body (a hostile target's megabyte of letters)", () => {
    const letters = 'a'.repeat(200_000);
    expect(maskEmails(letters)).toBe(letters);
    expect(maskEmails(`${letters}@example.org`)).toBe(`${'a'.repeat(200_000 - 64)}${MASK}`);
  }, 10_000);

  test('email addresses are masked in any text, also URL-encoded', () => {
    expect(maskEmails('write to john.smith@example.org or alice.archer%40sandbox.example today')).toBe(
      `write to ${MASK} or ${MASK} today`,
    );
    expect(maskEmails('no address @ here, a@b is not one, v1.2@x is not either')).toBe(
      'no address @ here, a@b is not one, v1.2@x is not either',
    );
  });
});

describe('operations and fixtures', () => {
  test('Document 2 operations are public; Documents 1 and 3 are not', () => {
    for (const id of [
      'lookup-practitioners',
      'search-register-practitioners',
      'search-address',
      'get-booking-practitioner',
    ])
      expect(isPublicOperation(id)).toBe(true);
    for (const id of [
      'find-member-v2',
      'get-bill',
      'search-hospital-claims',
      'get-patient',
      'get-user-details',
      undefined,
      'no-such-op',
    ])
      expect(isPublicOperation(id)).toBe(false);
  });

  test('no fixtures, no personal values', () => {
    expect(personalValuesOf({})).toEqual([]);
  });
});
