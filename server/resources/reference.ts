/**
 * Lookup and insurer resources (Document 2, 2.3): the practitioner lookup's minimal Practitioner,
 * the lookup Location (also the register's included Location), the insurer Organization and the
 * control-parameters Organization.
 */
import type { Location, ReferenceInsurer, RegisterPractitioner } from '../repo/model.ts';
import { REF_URL, refExtension } from './urls.ts';
import type { CodeDisplay } from './valueSet.ts';

export function lookupPractitionerOf(p: RegisterPractitioner, display: CodeDisplay): Record<string, unknown> {
  return {
    resourceType: 'Practitioner',
    id: p.id,
    meta: { id: p.id, lastUpdated: p.lastUpdated },
    extension: [
      {
        url: `${REF_URL}/valueset/profession/${p.profession}`,
        valueCodeableConcept: {
          coding: [
            {
              system: `${REF_URL}/valueset/practitioner-role`,
              code: p.profession,
              display: display('practitioner-role', p.profession),
            },
          ],
        },
      },
    ],
    active: p.active,
    name: [{ family: p.family, given: p.given }],
    gender: p.gender,
  };
}

export function locationOf(l: Location): Record<string, unknown> {
  return {
    resourceType: 'Location',
    id: l.id,
    meta: { lastUpdated: l.lastUpdated },
    name: l.name,
    address: { line: l.line, postalCode: l.postalCode },
    ...(l.position ? { position: { longitude: l.position.longitude, latitude: l.position.latitude } } : {}),
  };
}

export function insurerOf(i: ReferenceInsurer): Record<string, unknown> {
  return {
    resourceType: 'Organization',
    id: i.id,
    extension: [
      { url: refExtension('live'), valueString: i.live },
      { url: refExtension('insurerType'), valueString: i.insurerType },
      { url: refExtension('edi'), valueString: i.edi },
      { url: refExtension('category'), valueString: i.category },
      { url: refExtension('lastUpdated'), valueDateTime: i.lastUpdated },
    ],
    identifier: [{ id: i.id, system: `${REF_URL}/insurer-id`, value: i.code }],
    type: [{ coding: [{ system: `${REF_URL}/organization-type`, code: 'ins', display: 'Insurer' }] }],
    name: i.name,
  };
}

export const CONTROL_PARAMETER_NAMES = [
  'acceptsEDIClaims',
  'requiresDiagnosis',
  'synchronousME',
  'stvEnabled',
] as const;

/** The control-parameters Organization with the named parameters, in the order given. */
export function controlParametersOf(i: ReferenceInsurer): Record<string, unknown> {
  return {
    resourceType: 'Organization',
    id: i.sequence,
    identifier: [{ system: `${REF_URL}/insurer-id`, value: i.code }],
    name: i.name,
    // The URLs name the insurer asked for (2.3).
    extension: CONTROL_PARAMETER_NAMES.map((name) => ({
      url: `${REF_URL}/organization/ins/${i.id}/$control-parameters/${name}`,
      valueString: i.control[name],
    })),
  };
}
