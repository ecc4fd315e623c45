/**
 * How the register and booking filters show in returned resources (Document 2, 2.3, 4.9, 4.11,
 * 4.12, 4.13; DEC-D2-16, -18, -20, -21). Role filters on practitioner or location attributes are
 * judged through the resources a role bundle includes (`_include=practitioner:location`).
 */
import type { OperationId } from '../../spec/operations.ts';
import { on } from '../../core/suite.ts';
import { errorStatusAndCode, operationOutcomeShape } from '../../checks/index.ts';
import { isRecord, type Exchange } from '../../core/exchange.ts';
import { operation } from '../../spec/operations.ts';
import type { FilterDef, Resource } from './filterCandidates.ts';
import { lastUpdated, timeOf } from './readers.ts';

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const str = (v: unknown): v is string => typeof v === 'string' && v !== '';
const norm = (s: string) => s.replace(/\s+/g, '').toLowerCase();
/** A name with letter case and accents folded away (`Smíth` reads `smith`). */
export const foldedName = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Extensions (top-level or nested) whose URL is the name or ends with `/<name>`. */
export function extensionsNamed(r: unknown, name: string): Resource[] {
  if (!isRecord(r)) return [];
  return arr(r.extension).filter(
    (e): e is Resource => isRecord(e) && typeof e.url === 'string' && (e.url === name || e.url.endsWith(`/${name}`)),
  );
}

function codesOf(v: unknown): string[] {
  if (!isRecord(v)) return [];
  return [v.code, ...arr(v.coding).map((c) => (isRecord(c) ? c.code : undefined))].filter(str);
}

const nested = (r: unknown, outer: string, inner: string) =>
  extensionsNamed(r, outer).flatMap((o) => extensionsNamed(o, inner));
const nestedCodes = (r: unknown, outer: string, inner: string) =>
  nested(r, outer, inner).flatMap((e) => codesOf(e.valueCodeableConcept ?? e.valueCoding));
const nestedStrings = (r: unknown, outer: string, inner: string) =>
  nested(r, outer, inner)
    .map((e) => e.valueString)
    .filter(str);
const names = (r: Resource, part: 'family' | 'given') =>
  arr(r.name)
    .flatMap((n) => (isRecord(n) ? arr(n[part]) : []))
    .filter(str);
const postcodes = (r: Resource) =>
  arr(r.address)
    .map((a) => (isRecord(a) ? a.postalCode : undefined))
    .filter(str);

/** Values of a practitioner attribute; [] when the resource does not show it. */
export const practitionerValues: Record<string, (p: Resource) => string[]> = {
  gender: (p) => (str(p.gender) ? [p.gender] : []),
  profession: (p) => nestedCodes(p, 'profession', 'profession'),
  specialty: (p) => nestedCodes(p, 'profession', 'specialty'),
  subspecialty: (p) => nestedCodes(p, 'profession', 'subspecialty'),
  insurer: (p) => nestedCodes(p, 'insurers', 'insurer'),
  'insurer-recognition-status': (p) => nestedCodes(p, 'insurers', 'recognitionstatus'),
  'insurer-provider-number': (p) => nestedStrings(p, 'insurers', 'insurerprovidercode'),
  'regulator-reference': (p) => nestedStrings(p, 'registrationnumbers', 'regulatorreference'),
  'address-postalcode': postcodes,
  family: (p) => names(p, 'family'),
  given: (p) => names(p, 'given'),
  'is-onlinebooking-available': (p) =>
    extensionsNamed(p, 'onlineBookingStatus')
      .map((e) => e.valueBoolean)
      .filter((b) => typeof b === 'boolean')
      .map(String),
};

/** Whether shown values satisfy the filter value (DEC-D2-21); undefined when nothing is shown. */
export function valuesMatch(param: string, shown: string[], value: string): boolean | undefined {
  if (shown.length === 0) return undefined;
  // The meaning of `false` is not stated (DEC-D2-52): it may keep the practitioners without online
  // booking or not restrict at all, so no entry is judged by it (its answer is judged as a subset).
  if (param === 'is-onlinebooking-available' && value.trim().toLowerCase() === 'false') return undefined;
  // Whole names are sent; whether a part of a name matches (prefix, contains), or letter case and
  // accents count, is not stated, so a returned name containing the value with case and accents
  // folded passes whatever the target's match rule (DEC-D2-21, DEC-R-11).
  if (param === 'family' || param === 'given')
    return shown.some((s) => foldedName(s).includes(foldedName(value.trim())));
  if (param === 'address-postalcode') return shown.some((s) => norm(s) === norm(value));
  if (param === 'insurer')
    return value.split(',').some((v) => shown.some((s) => s.toLowerCase() === v.trim().toLowerCase()));
  return shown.some((s) => s.toLowerCase() === value.toLowerCase());
}

const proposals = (param: string, shown: string[]): string[] => {
  if (param === 'is-onlinebooking-available') return shown.includes('true') ? ['true'] : [];
  if (param === 'family' || param === 'given') return shown;
  return shown;
};

/** Filters of the register practitioner search (4.9), judged on the returned Practitioner. */
export const registerPractitionerFilters: Record<string, FilterDef> = Object.fromEntries(
  Object.entries(practitionerValues).map(([param, read]) => [
    param,
    {
      param,
      valuesFrom: (r: Resource) => proposals(param, read(r)),
      matches: (r: Resource, v: string) => valuesMatch(param, read(r), v),
    } satisfies FilterDef,
  ]),
);

/** Resources a role bundle includes, by `Type/id`. */
export function includedIndex(body: unknown): Map<string, Resource> {
  const index = new Map<string, Resource>();
  if (!isRecord(body)) return index;
  for (const e of arr(body.entry)) {
    const r = isRecord(e) && isRecord(e.resource) ? e.resource : undefined;
    if (r && (r.resourceType === 'Practitioner' || r.resourceType === 'Location') && str(r.id))
      index.set(`${r.resourceType}/${r.id}`, r);
  }
  return index;
}

const ref = (v: unknown) => (isRecord(v) && str(v.reference) ? v.reference : undefined);
export const rolePractitionerRef = (role: Resource) => ref(role.practitioner);
export const roleLocationRefs = (role: Resource) => arr(role.location).map(ref).filter(str);

/** Position of a Location resource, when it shows numeric coordinates. */
export function positionOf(location: Resource | undefined): { lat: number; lon: number } | undefined {
  const p = location && isRecord(location.position) ? location.position : undefined;
  return p && typeof p.latitude === 'number' && typeof p.longitude === 'number'
    ? { lat: p.latitude, lon: p.longitude }
    : undefined;
}

/**
 * Filters of the register role search (4.11). Role fields are read on the role; practitioner and
 * location attributes through the bundle's included resources (`index`).
 */
export function roleFilters(index: Map<string, Resource>): Record<string, FilterDef> {
  const practitionerOf = (role: Resource) => index.get(rolePractitionerRef(role) ?? '');
  const locationsOf = (role: Resource) =>
    roleLocationRefs(role)
      .map((l) => index.get(l))
      .filter((l): l is Resource => l !== undefined);
  const viaPractitioner = (param: string): FilterDef => ({
    param,
    valuesFrom: (role) => {
      const p = practitionerOf(role);
      return p ? proposals(param, practitionerValues[param](p)) : [];
    },
    matches: (role, v) => {
      const p = practitionerOf(role);
      return p ? valuesMatch(param, practitionerValues[param](p), v) : undefined;
    },
  });
  const idOf = (reference: string | undefined) => reference?.split('/').pop();
  return {
    practitioner: {
      param: 'practitioner',
      valuesFrom: (role) => [idOf(rolePractitionerRef(role))].filter(str),
      matches: (role, v) =>
        rolePractitionerRef(role) === undefined ? undefined : idOf(rolePractitionerRef(role)) === v,
    },
    location: {
      param: 'location',
      valuesFrom: (role) => roleLocationRefs(role).map(idOf).filter(str),
      matches: (role, v) =>
        roleLocationRefs(role).length === 0 ? undefined : roleLocationRefs(role).some((l) => idOf(l) === v),
    },
    'ages-treated': {
      param: 'ages-treated',
      valuesFrom: (role) => extensionsNamed(role, 'agestreated').flatMap((e) => codesOf(e.valueCodeableConcept)),
      matches: (role, v) =>
        valuesMatch(
          'ages-treated',
          extensionsNamed(role, 'agestreated').flatMap((e) => codesOf(e.valueCodeableConcept)),
          v,
        ),
    },
    specialty: {
      param: 'specialty',
      valuesFrom: (role) => arr(role.specialty).flatMap(codesOf),
      matches: (role, v) => valuesMatch('specialty', arr(role.specialty).flatMap(codesOf), v),
    },
    'address-postalcode': {
      param: 'address-postalcode',
      valuesFrom: (role) =>
        locationsOf(role).flatMap((l) =>
          isRecord(l.address) && str(l.address.postalCode) ? [l.address.postalCode] : [],
        ),
      matches: (role, v) =>
        valuesMatch(
          'address-postalcode',
          locationsOf(role).flatMap((l) =>
            isRecord(l.address) && str(l.address.postalCode) ? [l.address.postalCode] : [],
          ),
          v,
        ),
    },
    ...Object.fromEntries(
      ['profession', 'subspecialty', 'gender', 'family', 'given', 'insurer', 'is-onlinebooking-available'].map((p) => [
        p,
        viaPractitioner(p),
      ]),
    ),
  };
}

/** Booking practitioner search filters (4.12) visible on the Booking Practitioner. */
export const bookingPractitionerFilters: Record<string, FilterDef> = {
  family: registerPractitionerFilters.family,
  given: registerPractitionerFilters.given,
  gender: registerPractitionerFilters.gender,
  id: {
    param: 'id',
    valuesFrom: (r) => bookingIds(r),
    matches: (r, v) => (bookingIds(r).length === 0 ? undefined : bookingIds(r).includes(v)),
  },
  registeredno: {
    param: 'registeredno',
    valuesFrom: (r) =>
      extensionsNamed(r, 'registeredNumber')
        .map((e) => e.valueString)
        .filter(str),
    matches: (r, v) =>
      valuesMatch(
        'registeredno',
        extensionsNamed(r, 'registeredNumber')
          .map((e) => e.valueString)
          .filter(str),
        v,
      ),
  },
  site: {
    param: 'site',
    valuesFrom: (r) => siteIds(r),
    matches: (r, v) => valuesMatch('site', siteIds(r), v),
  },
};

function bookingIds(r: Resource): string[] {
  return arr(r.identifier)
    .filter((i) => isRecord(i) && i.id === 'booking_identifier')
    .map((i) => (isRecord(i) ? i.value : undefined))
    .filter(str);
}
function siteIds(r: Resource): string[] {
  return extensionsNamed(r, 'site')
    .map((e) => ref(e.valueReference)?.replace(/^Site\//, ''))
    .filter(str);
}

/** `_since` judged on `meta.lastUpdated` (DEC-D2-22). */
export function updatedSince(since: string): (r: Resource) => boolean | undefined {
  return (r) => {
    const t = timeOf(lastUpdated(r));
    return t === undefined ? undefined : t >= Date.parse(since);
  };
}

/**
 * A refusal whose code the documents do not tie to the trigger (D2 7; DEC-D2-22, -30, -58): any
 * documented code of the operation's error table, at that code's documented status, passes (MUST,
 * citing the rows that say the input is refused and that a documented code comes with its status);
 * whether the expected code was chosen is recorded (INFO); the OperationOutcome shape is SHOULD.
 */
export function verifyDocumentedRefusal(
  x: Exchange,
  id: OperationId,
  expected: string | readonly string[],
  requirements: readonly string[],
  opts: { decisions?: string[]; shapeRequirements?: readonly string[] } = {},
): void {
  const table = operation(id).errors.filter((e) => e.code !== '');
  const wanted = table.filter((e) => (typeof expected === 'string' ? [expected] : expected).includes(e.code));
  if (wanted.length === 0) throw new Error(`Suite bug: ${id} has no documented error ${String(expected)}`);
  on(id)
    .must(...new Set([...requirements, 'D2-7-28', 'D2-7-29']))
    .under(...(opts.decisions ?? []))
    .check(x, errorStatusAndCode(table));
  on(id)
    .info(...requirements)
    .under(...(opts.decisions ?? []))
    .check(x, errorStatusAndCode(wanted), {
      note: 'the documents tie no code to this input; which documented code was chosen is recorded',
    });
  if (opts.shapeRequirements)
    on(id)
      .should(...opts.shapeRequirements)
      .under('DEC-D2-24')
      .check(x, operationOutcomeShape);
}
