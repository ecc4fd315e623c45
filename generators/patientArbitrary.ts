/**
 * Patients as a caller creates them (Document 3, 2.4): names, telecoms, gender, birth date,
 * address and the three extensions, without `id`. Values are plain printable text so that a
 * conformant server must return them unchanged (round-trip).
 */
import fc from 'fast-check';

const word = fc.stringMatching(/^[A-Z][a-z]{1,10}$/);
const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
const isoDay = fc
  .date({ min: new Date('1920-01-01T00:00:00Z'), max: new Date('2024-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const postcode = fc
  .tuple(fc.stringMatching(/^[A-Z]{1,2}[0-9]$/), fc.stringMatching(/^[0-9][A-Z]{2}$/))
  .map(([a, b]) => `${a} ${b}`);

/** The reference URL prefix of the patient extensions (`{ref_url}/extension/patient/<name>`). */
export function patientArbitrary(refUrl = 'https://ref.example'): fc.Arbitrary<Record<string, unknown>> {
  const telecom = fc.oneof(
    digits(11).map((v) => ({ system: 'phone', value: v, use: 'home' })),
    fc
      .tuple(word, word)
      .map(([a, b]) => ({ system: 'email', value: `${a}.${b}@example.org`.toLowerCase(), use: 'home' })),
    digits(11).map((v) => ({ system: 'sms', value: v, use: 'mobile' })),
  );
  const address = fc
    .record({
      type: fc.constantFrom('postal', 'physical', 'both'),
      line: fc.array(
        fc.tuple(fc.integer({ min: 1, max: 999 }), word).map(([n, s]) => `${n} ${s} Street`),
        { minLength: 1, maxLength: 2 },
      ),
      city: word,
      postalCode: postcode,
    })
    .map((a) => ({ ...a, text: [...a.line, a.city, a.postalCode].join(', ') }));
  return fc.record({
    resourceType: fc.constant('Patient'),
    extension: fc.tuple(fc.constantFrom('bup', 'ppp', 'nuh'), digits(8), digits(6)).map(([insurer, reg, auth]) => [
      { url: `${refUrl}/extension/patient/insurer`, valueString: insurer },
      { url: `${refUrl}/extension/patient/registrationid`, valueString: `REG${reg}` },
      { url: `${refUrl}/extension/patient/authorizationno`, valueString: `AUTH${auth}` },
    ]),
    name: fc
      .tuple(word, word, fc.constantFrom('Mr', 'Mrs', 'Ms', 'Dr'))
      .map(([family, given, prefix]) => [{ family, given: [given], prefix: [prefix] }]),
    telecom: fc.uniqueArray(telecom, { minLength: 1, maxLength: 3, selector: (t) => t.system }),
    gender: fc.constantFrom('male', 'female', 'other', 'unknown'),
    birthDate: isoDay,
    address: address.map((a) => [a]),
  });
}
