import { describe, expect, it } from 'vitest';
import { patientRoundTrip } from './patientRoundTrip.ts';
import { respondedExchange } from './testing.ts';

const REF = 'https://ref.example/extension/patient';
const sent = {
  resourceType: 'Patient',
  extension: [
    { url: `${REF}/insurer`, valueString: 'bup' },
    { url: `${REF}/registrationid`, valueString: 'REG12345678' },
  ],
  name: [{ family: 'Smith', given: ['Anna', 'Marie'], prefix: ['Dr'] }],
  telecom: [
    { system: 'phone', value: '07700900001', use: 'home' },
    { system: 'email', value: 'anna@example.org', use: 'home' },
  ],
  gender: 'female',
  birthDate: '1980-02-29',
  address: [
    {
      type: 'postal',
      text: '1 High Street, Leeds, LS1 1AA',
      line: ['1 High Street'],
      city: 'Leeds',
      postalCode: 'LS1 1AA',
    },
  ],
};

/** What a server returns: ids added, lists reordered, extra members. */
const returned = (patch: Record<string, unknown> = {}) => ({
  ...sent,
  id: 'PAT-1',
  active: true,
  deceasedBoolean: false,
  meta: { versionId: '1' },
  extension: [...sent.extension].reverse(),
  telecom: [
    { ...sent.telecom[1], id: 't2' },
    { ...sent.telecom[0], id: 't1' },
  ],
  address: [{ ...sent.address[0], id: 'a1' }],
  ...patch,
});
const run = (body: unknown, what: Record<string, unknown> = sent) =>
  patientRoundTrip(what).run(respondedExchange({ status: 201, body }));

describe('patientRoundTrip', () => {
  it('passes when every sent value comes back, ignoring server-added members and order', () => {
    expect(run(returned())).toMatchObject({ outcome: 'pass', message: 'all 8 sent values returned' });
  });

  it('compares only the members that were sent', () => {
    expect(run(returned(), { resourceType: 'Patient', name: [{ family: 'Smith' }] }).outcome).toBe('pass');
    expect(run(returned(), { resourceType: 'Patient' }).message).toBe('all 0 sent values returned');
  });

  it('fails on a changed scalar', () => {
    expect(run(returned({ birthDate: '1980-03-01' })).message).toBe(
      'Expected the returned Patient to hold every sent value, received 1 missing or changed: birthDate "1980-02-29" came back as "1980-03-01"',
    );
    expect(run(returned({ gender: undefined })).message).toContain('gender "female" came back as <absent>');
  });

  it('fails on a missing or changed list item', () => {
    expect(run(returned({ telecom: [sent.telecom[0]] })).message).toContain(
      'telecom {"system":"email","value":"anna@example.org","use":"home"} not returned',
    );
    expect(run(returned({ name: [{ family: 'Smith', given: ['Marie', 'Anna'], prefix: ['Dr'] }] })).message).toContain(
      'name {"family":"Smith"',
    );
    expect(run(returned({ address: [{ ...sent.address[0], line: ['1 High St'] }] })).outcome).toBe('fail');
    expect(
      run(returned({ extension: [{ url: `${REF}/insurer`, valueString: 'ppp' }, sent.extension[1]] })).message,
    ).toContain('extension');
  });

  it("reads an extension by its URL's ending: the server's own prefix passes, another name fails (DEC-D3-30)", () => {
    const own = 'https://fhir.server.example/ref/extension/patient';
    const moved = sent.extension.map((e) => ({ ...e, url: e.url.replace(REF, own) }));
    expect(run(returned({ extension: moved })).outcome).toBe('pass');
    const renamed = [moved[0], { ...moved[1], url: `${own}/registration-id` }];
    expect(run(returned({ extension: renamed })).message).toContain(
      `extension {"url":"${REF}/registrationid","valueString":"REG12345678"} not returned`,
    );
  });

  it('needs one returned item per sent item', () => {
    const twice = {
      resourceType: 'Patient',
      telecom: [
        { system: 'phone', value: '1' },
        { system: 'phone', value: '1', use: 'home' },
      ],
    };
    // The looser sent item must not take the only item the stricter one fits.
    expect(
      run(
        {
          resourceType: 'Patient',
          telecom: [
            { system: 'phone', value: '1', use: 'home' },
            { system: 'phone', value: '1', use: 'work' },
          ],
        },
        twice,
      ).outcome,
    ).toBe('pass');
    expect(
      run({ resourceType: 'Patient', telecom: [{ system: 'phone', value: '1', use: 'home' }] }, twice).outcome,
    ).toBe('fail');
  });

  it('fails on something that is not a Patient', () => {
    expect(run({ resourceType: 'OperationOutcome' }).message).toBe(
      'Expected a Patient, received resourceType "OperationOutcome"',
    );
    expect(run({ ...sent, resourceType: undefined }).outcome).toBe('fail');
  });

  it('never throws on hostile bodies', () => {
    expect(
      run(returned({ name: 'Smith', telecom: null, address: { city: 'Leeds' }, extension: [null, 1, [], 'x'] }))
        .outcome,
    ).toBe('fail');
    expect(run(returned({ name: [{ family: 'Smith', given: 'Anna', prefix: { 0: 'Dr' } }] })).outcome).toBe('fail');
    expect(run('').outcome).toBe('fail');
    expect(run([sent]).outcome).toBe('fail');
    expect(patientRoundTrip(sent).run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    const many = Array.from({ length: 5000 }, (_, i) => ({ system: 'phone', value: String(i) }));
    expect(run(returned({ telecom: many })).outcome).toBe('fail');
  });
});

describe('patientRoundTrip: the birth date under the table name (DEC-D3-31)', () => {
  it('passes with birthdate, fails when neither name holds the date sent', () => {
    const check = patientRoundTrip;
    expect(
      check({ resourceType: 'Patient', birthDate: '1980-04-12' }).run(
        respondedExchange({ body: { resourceType: 'Patient', id: 'P', birthdate: '1980-04-12' } }),
      ).outcome,
    ).toBe('pass');
    expect(
      check({ resourceType: 'Patient', birthDate: '1980-04-12' }).run(
        respondedExchange({ body: { resourceType: 'Patient', id: 'P', birthdate: '1980-04-13' } }),
      ).outcome,
    ).toBe('fail');
  });
});
