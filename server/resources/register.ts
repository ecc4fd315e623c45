/**
 * Private-practice register resources (Document 2, 2.3): the register Practitioner (4.9), the
 * PractitionerRole (4.11) and the photo Parameters (4.10). Extension URLs are
 * `{ref_url}/extension/<name>`; nested extensions carry their bare name as `url`.
 */
import type { Location, RegisterPractitioner, RegisterRole } from '../repo/model.ts';
import { REF_URL, refExtension } from './urls.ts';
import type { CodeDisplay } from './valueSet.ts';

const REGULATORS: Readonly<Record<string, string>> = {
  GMC: 'General Medical Council',
  HCPC: 'Health and Care Professions Council',
  NMC: 'Nursing and Midwifery Council',
};
const RECOGNITION: Readonly<Record<string, string>> = { Y: 'Recognised', N: 'Not recognised', P: 'Pending' };
export const AGE_BANDS: Readonly<Record<string, string>> = {
  C0: '0-2 years',
  C1: '3-11 years',
  C2: '12-17 years',
  C3: '18-64 years',
  C4: '65 years and over',
};

const concept = (system: string, code: string, display: string) => ({ coding: [{ system, code, display }] });

/** `Title GivenName FamilyName` (4.11 name format): a role's practitioner display and its name sort key. */
export const displayName = (p: RegisterPractitioner): string => `${p.prefix} ${p.given[0]} ${p.family}`;

export function registerPractitionerOf(p: RegisterPractitioner, display: CodeDisplay): Record<string, unknown> {
  const coded = (setName: string, code: string) =>
    concept(`${REF_URL}/valueset/${setName}`, code, display(setName, code));
  return {
    resourceType: 'Practitioner',
    id: p.id,
    meta: { lastUpdated: p.lastUpdated },
    extension: [
      { url: refExtension('indemnityStatus'), valueString: p.indemnityStatus },
      { url: refExtension('onlineBookingStatus'), valueBoolean: p.onlineBooking },
      {
        url: refExtension('profession'),
        extension: [
          { url: 'profession', valueCodeableConcept: coded('practitioner-role', p.profession) },
          ...p.specialties.map((s) => ({ url: 'specialty', valueCodeableConcept: coded('practitioner-specialty', s) })),
          ...p.subspecialties.map((s) => ({
            url: 'subspecialty',
            valueCodeableConcept: coded('practitioner-subspecialty', s),
          })),
        ],
      },
      {
        url: refExtension('registrationnumbers'),
        extension: [
          {
            url: 'regulatorybody',
            valueCodeableConcept: concept(`${REF_URL}/regulatorybody`, p.regulator.body, REGULATORS[p.regulator.body]),
          },
          { url: 'regulatorreference', valueString: p.regulator.reference },
          { url: 'registrationdate', valueString: p.regulator.registrationDate },
        ],
      },
      ...p.insurers.map((i) => ({
        url: refExtension('insurers'),
        extension: [
          { url: 'insurer', valueCodeableConcept: concept(`${REF_URL}/insurer`, i.code, i.name) },
          { url: 'insurerprovidercode', valueString: i.providerNumber },
          {
            url: 'recognitionstatus',
            valueCodeableConcept: concept(`${REF_URL}/recognitionstatus`, i.status, RECOGNITION[i.status]),
          },
        ],
      })),
    ],
    active: p.active,
    name: [{ family: p.family, given: p.given, prefix: [p.prefix] }],
    telecom: [
      { id: 'phone', system: 'phone', value: p.phone },
      { id: 'email', system: 'email', value: p.email },
    ],
    address: [{ type: 'both', text: [...p.line, p.postalCode].join(', '), line: p.line, postalCode: p.postalCode }],
    gender: p.gender,
    birthDate: p.birthDate,
    qualification: p.qualifications.map((q) => ({
      id: q.id,
      code: concept(`${REF_URL}/qualification`, q.code, q.display),
      period: { start: q.start },
    })),
  };
}

export function registerRoleOf(
  r: RegisterRole,
  practitioner: RegisterPractitioner,
  location: Location,
  display: CodeDisplay,
): Record<string, unknown> {
  const coded = (setName: string, code: string) =>
    concept(`${REF_URL}/valueset/${setName}`, code, display(setName, code));
  return {
    resourceType: 'PractitionerRole',
    id: r.id,
    meta: { lastUpdated: r.lastUpdated },
    extension: r.agesTreated.map((code) => ({
      url: refExtension('agestreated'),
      valueCodeableConcept: concept(`${REF_URL}/agestreated`, code, AGE_BANDS[code] ?? code),
    })),
    practitioner: { reference: `Practitioner/${practitioner.id}`, display: displayName(practitioner) },
    specialty: r.specialties.map((s) => coded('practitioner-specialty', s)),
    location: [{ reference: `Location/${location.id}`, display: location.name }],
  };
}

export function photoOf(attachment: {
  contentType: string;
  data: string;
  size: number;
  title: string;
}): Record<string, unknown> {
  return { resourceType: 'Parameters', parameter: [{ name: 'photo', valueAttachment: attachment }] };
}
