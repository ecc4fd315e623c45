/**
 * Which data of the API family is personal data of patients, members and account users, and how it
 * is masked (spec/decisions.md DEC-R-01). Three tools, used by core/redact.ts:
 *
 * - a JSON walker that masks personal fields by structure (a Patient resource's name, telecom,
 *   birth date, address and identifiers) and by name (`lastName`, `membershipNumber`,
 *   `loginEmailAddress`, the `membershipNumber` extension ...), keeping the JSON valid and its shape;
 * - a masker of query and form parameters by parameter name (`lastName`, `dateOfBirth`,
 *   `patientLastName`, `membershipNumber` ...);
 * - a store of the personal values seen, so that free text repeating one is masked too, and an
 *   email-address pattern for any text.
 *
 * Practitioner, organisation and location data is public register data and is never masked here;
 * neither are ids, codes, statuses, gender or dates other than birth dates: checks' evidence needs
 * them and they identify nobody.
 */
import { operations } from '../spec/operations.ts';
import type { Fixtures } from './configTypes.ts';

/** The one sentinel of every masked value, secrets and personal data alike. */
export const MASK = '****';

/**
 * How a masked value is remembered for free text: `name` (the whole and each word of it), `value`
 * (the whole: a date, a number, a postcode, an address line, an email), `weak` (not at all: a
 * title, an initial, a city, which would mask common words everywhere and identify nobody alone).
 */
export type PersonalKind = 'name' | 'value' | 'weak';

// ---------------------------------------------------------------------------------------------
// Parameters (query strings and form bodies)

/**
 * Request parameters whose values are personal data, by exact name (spec/operations.ts):
 * Find Member's search fields, the remittance and claim searches' patient fields, membership and
 * hospital numbers. The practitioner searches' `family`, `given` and `address-postalcode` and the
 * address service's `text` and `postcode` are not here: they query public register data.
 */
const PERSONAL_PARAMETERS: Readonly<Record<string, PersonalKind>> = {
  firstInitial: 'weak',
  lastName: 'name',
  firstName: 'name',
  patientName: 'name',
  patientLastName: 'name',
  dateOfBirth: 'value',
  birthDate: 'value',
  patientDateOfBirth: 'value',
  postCode: 'value',
  membershipNumber: 'value',
  hospitalNumber: 'value',
  email: 'value',
  phone: 'value',
};

/** The kind of a personal parameter, undefined when the parameter is not personal data. */
export function personalParameter(name: string): PersonalKind | undefined {
  return Object.hasOwn(PERSONAL_PARAMETERS, name) ? PERSONAL_PARAMETERS[name] : undefined;
}

function decodeComponent(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw; // a malformed escape is shown as sent
  }
}

/** Receives each personal value as it is masked, to learn it. */
export type Learn = (value: string, kind: PersonalKind) => void;

/**
 * `a=1&b=2` (a query string without `?`, or a form body) with the values of personal parameters
 * replaced by the mask. Everything else keeps its exact encoding; empty values stay empty (an
 * empty parameter is evidence, not data).
 */
export function maskParameters(encoded: string, learn?: Learn): string {
  return encoded
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const kind = personalParameter(decodeComponent(pair.slice(0, eq)));
      const raw = pair.slice(eq + 1);
      if (kind === undefined || raw === '') return pair;
      learn?.(decodeComponent(raw), kind);
      return `${pair.slice(0, eq + 1)}${MASK}`;
    })
    .join('&');
}

/** The URL with the values of personal query parameters masked (path and fragment unchanged). */
export function maskUrlParameters(url: string, learn?: Learn): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  return url.slice(0, q + 1) + maskParameters(url.slice(q + 1, end), learn) + url.slice(end);
}

// ---------------------------------------------------------------------------------------------
// JSON

type Context = 'patient' | 'public' | 'neutral';

/** Resources about a natural person who is a patient or member (or related to one). */
const PERSON_RESOURCES = new Set(['Patient', 'RelatedPerson', 'Person']);
/**
 * Public register and reference resources: nothing beneath them is masked (practitioners are
 * register data; organisations and locations are not persons), DEC-R-01.
 */
const PUBLIC_RESOURCES = new Set([
  'Practitioner',
  'PractitionerRole',
  'Organization',
  'Location',
  'HealthcareService',
  'Endpoint',
  'ValueSet',
  'CodeSystem',
]);

/**
 * How the members of an object beneath a personal field are treated (`keep`: not personal), and
 * what a bare string is where the object was expected (`name: "John Smith"`).
 */
interface Subtree {
  members: Readonly<Record<string, PersonalKind | 'keep'>>;
  otherwise: PersonalKind | 'keep';
  leaf: PersonalKind;
}

/** Structural members of FHIR datatypes that say what a value is, never who. */
const STRUCTURAL: Readonly<Record<string, 'keep'>> = {
  use: 'keep',
  period: 'keep',
  id: 'keep',
  system: 'keep',
  type: 'keep',
  url: 'keep',
  resourceType: 'keep',
};

const HUMAN_NAME: Subtree = {
  members: { ...STRUCTURAL, prefix: 'weak', suffix: 'weak', title: 'weak', firstInitial: 'weak' },
  otherwise: 'name',
  leaf: 'name',
};
const TELECOM: Subtree = { members: { value: 'value' }, otherwise: 'keep', leaf: 'value' };
const ADDRESS: Subtree = {
  members: {
    line: 'value',
    text: 'value',
    postalCode: 'value',
    postCode: 'value',
    city: 'weak',
    district: 'weak',
    state: 'weak',
  },
  otherwise: 'keep',
  leaf: 'value',
};
const IDENTIFIER: Subtree = { members: { value: 'value' }, otherwise: 'keep', leaf: 'value' };

/** An object where a personal value was expected: every member is that value's kind but the structural ones. */
const personalObject = (kind: PersonalKind): Subtree => ({ members: HUMAN_NAME.members, otherwise: kind, leaf: kind });

type Treatment = PersonalKind | Subtree;

/** Members of a Patient (or another person resource) that are personal data. */
const PATIENT_MEMBERS: Readonly<Record<string, Treatment>> = {
  name: HUMAN_NAME,
  telecom: TELECOM,
  birthDate: 'value',
  address: ADDRESS,
  identifier: IDENTIFIER,
};

/**
 * Members that are personal data wherever they appear outside public resources: names of members,
 * patients and account users, birth dates, membership and patient numbers, contact details.
 */
const PERSONAL_MEMBERS: Readonly<Record<string, Treatment>> = {
  firstName: 'name',
  lastName: 'name',
  middleName: 'name',
  middlename: 'name',
  firstInitial: 'weak',
  otherInitials: 'weak',
  patientName: HUMAN_NAME,
  patientFirstName: 'name',
  patientLastName: 'name',
  patientNameUnstruct: 'name',
  birthDate: 'value',
  dateOfBirth: 'value',
  patientDateOfBirth: 'value',
  membershipNumber: 'value',
  subscriberId: 'value',
  registrationNo: 'value',
  nhsNumber: 'value',
  hospitalNumber: 'value',
  postCode: 'value',
  email: 'value',
  emailAddress: 'value',
  loginEmailAddress: 'value',
  phone: 'value',
  phoneNumber: 'value',
  mobile: 'value',
  telecom: TELECOM,
};

/** Members naming a person: an object holding one of them is a person's name (an account user). */
const STRONG_NAME_MEMBERS = ['firstName', 'lastName', 'middleName', 'middlename'];
/** FHIR HumanName members: in an exchange body, an object holding one is a person's name. */
const HUMAN_NAME_MEMBERS = ['family', 'given'];
/** What a person-name object's members are (`user` of user info: title, family, given, middlename). */
const NAME_PARTS: Readonly<Record<string, PersonalKind>> = {
  family: 'name',
  given: 'name',
  text: 'name',
  middle: 'name',
  middlename: 'name',
  middleName: 'name',
  firstName: 'name',
  lastName: 'name',
  prefix: 'weak',
  suffix: 'weak',
  title: 'weak',
};

/** Extensions (by the last segment of their url, lower case) whose value is personal data. */
const PERSONAL_EXTENSIONS: Readonly<Record<string, PersonalKind>> = {
  membershipnumber: 'value',
  patientname: 'name',
  registrationid: 'value',
  otherinitials: 'weak',
  hospitalnumber: 'value',
  nhsnumber: 'value',
  birthdate: 'value',
  dateofbirth: 'value',
};

/** Identifier systems (last segment) and ids of identifiers that hold a person's number. */
const PERSONAL_IDENTIFIER = /(?:^|[/#:])(?:membershipnumber|nhs-number|nhsnumber|hospitalnumber|registrationid)$/i;

/** Reference members whose `display` is a patient's or member's name (a hospital claim's `patient.display`). */
const PERSON_REFERENCES = new Set(['patient', 'beneficiary', 'subscriber', 'policyHolder']);

export interface JsonMasking {
  /** Learns each personal value masked. */
  learn?: Learn;
  /** A string outside public resources that is not a personal field (free text, ids, codes). */
  free?: (text: string) => string;
  /** A string inside a public resource (practitioner, organisation, location). */
  kept?: (text: string) => string;
  /**
   * Treat any object with `family` or `given` as a person's name. True for exchange bodies (every
   * operation that carries public names is left out before); false for evidence, where a register
   * search's filters (`family: "Fra"`) look alike.
   */
  humanNames?: boolean;
}

const identity = (s: string) => s;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A reference to a public resource (`Practitioner/PR-1`): its `display` names a practitioner or organisation. */
const PUBLIC_REFERENCE = new RegExp(`^(?:${[...PUBLIC_RESOURCES].join('|')})/`);

function contextOf(node: Record<string, unknown>, inherited: Context): Context {
  const type = node.resourceType;
  if (typeof type !== 'string')
    return typeof node.reference === 'string' && PUBLIC_REFERENCE.test(node.reference) ? 'public' : inherited;
  if (PERSON_RESOURCES.has(type)) return 'patient';
  if (PUBLIC_RESOURCES.has(type)) return 'public';
  return 'neutral';
}

function lastSegment(url: string): string {
  return url
    .replace(/[/#]+$/, '')
    .split(/[/#]/)
    .slice(-1)[0]
    .toLowerCase();
}

/** How the members of an object are treated, from its own shape (names, extensions, identifiers). */
function memberTreatments(
  node: Record<string, unknown>,
  ctx: Context,
  parentKey: string | undefined,
  options: JsonMasking,
): Map<string, Treatment> {
  const out = new Map<string, Treatment>();
  const keys = Object.keys(node);
  for (const k of keys) {
    const byPatient = ctx === 'patient' && Object.hasOwn(PATIENT_MEMBERS, k) ? PATIENT_MEMBERS[k] : undefined;
    const byName = Object.hasOwn(PERSONAL_MEMBERS, k) ? PERSONAL_MEMBERS[k] : undefined;
    const t = byPatient ?? byName;
    if (t !== undefined) out.set(k, t);
  }
  const personName =
    keys.some((k) => STRONG_NAME_MEMBERS.includes(k)) ||
    ((options.humanNames === true || ctx === 'patient') && keys.some((k) => HUMAN_NAME_MEMBERS.includes(k)));
  if (personName) for (const k of keys) if (Object.hasOwn(NAME_PARTS, k)) out.set(k, NAME_PARTS[k]);
  if (typeof node.url === 'string') {
    const name = lastSegment(node.url);
    const kind = Object.hasOwn(PERSONAL_EXTENSIONS, name) ? PERSONAL_EXTENSIONS[name] : undefined;
    if (kind !== undefined) for (const k of keys) if (/^value[A-Z]/.test(k)) out.set(k, kind);
  }
  const system = typeof node.system === 'string' ? node.system : '';
  const id = typeof node.id === 'string' ? node.id : '';
  if ('value' in node && (PERSONAL_IDENTIFIER.test(system) || PERSONAL_IDENTIFIER.test(`/${id}`)))
    out.set('value', 'value');
  if (parentKey !== undefined && PERSON_REFERENCES.has(parentKey) && 'display' in node) out.set('display', 'name');
  return out;
}

/** Sets a member as JSON.parse does: a `__proto__` member is an own member, not the prototype. */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** The kind of a string found where the treatment applies. */
function leafKind(t: Treatment): PersonalKind {
  return typeof t === 'string' ? t : t.leaf;
}

function personalLeaf(v: string | number, kind: PersonalKind, options: JsonMasking): string {
  const text = String(v);
  if (text === '') return text;
  options.learn?.(text, kind);
  return MASK;
}

function walk(
  v: unknown,
  ctx: Context,
  treatment: Treatment | undefined,
  parentKey: string | undefined,
  options: JsonMasking,
): unknown {
  if (typeof v === 'string' || typeof v === 'number') {
    const kind = treatment === undefined ? undefined : leafKind(treatment);
    if (kind !== undefined) return personalLeaf(v, kind, options);
    if (typeof v === 'number') return v;
    return ctx === 'public' ? (options.kept ?? identity)(v) : (options.free ?? identity)(v);
  }
  if (Array.isArray(v)) return v.map((item: unknown) => walk(item, ctx, treatment, parentKey, options));
  if (!isRecord(v)) return v; // booleans and null identify nobody
  const here = contextOf(v, ctx);
  const out: Record<string, unknown> = {};
  if (treatment !== undefined) {
    // Beneath a personal field: a HumanName, an address, a telecom, an identifier, a name object.
    const subtree = typeof treatment === 'string' ? personalObject(treatment) : treatment;
    for (const [k, child] of Object.entries(v)) {
      const t = Object.hasOwn(subtree.members, k) ? subtree.members[k] : subtree.otherwise;
      put(out, k, walk(child, here, t === 'keep' ? undefined : t, k, options));
    }
    return out;
  }
  if (here === 'public') {
    for (const [k, child] of Object.entries(v)) put(out, k, walk(child, here, undefined, k, options));
    return out;
  }
  const treatments = memberTreatments(v, here, parentKey, options);
  for (const [k, child] of Object.entries(v)) put(out, k, walk(child, here, treatments.get(k), k, options));
  return out;
}

/**
 * A copy of a JSON value with the strings (and numbers) of personal fields replaced by the mask,
 * the same members, arrays and other values. Personal values are handed to `learn`; other strings
 * go through `free` (or `kept` inside public resources).
 */
export function maskPersonalJson<T>(value: T, options: JsonMasking = {}): T {
  return walk(value, 'neutral', undefined, undefined, options) as T;
}

/**
 * Members whose values are personal data by their name alone, for a body masked as text, where no
 * structure tells a Patient from an Organization: the members of {@link PERSONAL_MEMBERS} and the
 * parts of a person's name and address. Only exchanges of operations that carry personal data are
 * masked so, where `family` and `given` name patients and members (as `humanNames` assumes for
 * exchange bodies). `name`, `text` and `title` are left out: organisations, notes and features
 * have them too.
 */
const MEMBERS_IN_TEXT = [
  ...Object.keys(PERSONAL_MEMBERS).filter((k) => typeof PERSONAL_MEMBERS[k] === 'string'),
  ...Object.keys(NAME_PARTS).filter((k) => !['text', 'title'].includes(k)),
  'postalCode',
  'line',
];
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const JSON_NUMBER = String.raw`-?\d[\d.eE+-]*`;
/** A personal member and its value: a string, a number or a list of strings. */
const MEMBER_IN_TEXT = new RegExp(
  String.raw`("(?:${[...new Set(MEMBERS_IN_TEXT)].join('|')})"\s*:\s*)(${JSON_STRING}|${JSON_NUMBER}|\[(?:\s*${JSON_STRING}\s*,)*\s*${JSON_STRING}\s*\])`,
  'g',
);
/** Each value of a member's value (the one, or each string of a list). */
const MEMBER_VALUE = new RegExp(`${JSON_STRING}|^${JSON_NUMBER}$`, 'g');

/**
 * A body that could not be walked as JSON (malformed, cut at the size cap, nested too deep) with the
 * values of personal members masked in place, as the walker masks them: the only masking, in such a
 * body, of a value too short to be masked in free text (`"family": "Li"`). Strings of a list
 * (`"given": ["Li", "Ann"]`) are masked one by one; an empty string stays (evidence, not data).
 */
export function maskPersonalMembers(text: string): string {
  return text.replace(
    MEMBER_IN_TEXT,
    (_, member: string, value: string) => member + value.replace(MEMBER_VALUE, (v) => (v === '""' ? v : `"${MASK}"`)),
  );
}

// ---------------------------------------------------------------------------------------------
// Free text

// Bounded repetitions (RFC 5321 lengths: local part 64, label 63) keep the search linear: an
// unbounded local part made a megabyte of letters without `@` take quadratic time.
const EMAIL =
  /[A-Za-z0-9._%+-]{1,64}(?:@|%40)[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![A-Za-z])/g;

/** Any email address in the text (also URL-encoded, `%40`) replaced by the mask. */
export function maskEmails(text: string): string {
  // Most text holds no address at all: skip the search (bodies can be a megabyte).
  if (!text.includes('@') && !text.includes('%40')) return text;
  return text.replace(EMAIL, MASK);
}

/** Titles are never learned: they are masked in place but identify nobody and are common words. */
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'sir', 'lady', 'lord', 'rev', 'dame']);

/**
 * The fewest characters a personal value needs to be masked in free text. Shorter ones (`Li`,
 * `Ian`, or the `val` and `ref` a generator sends as a name) are masked only where they stand, in
 * their field: as words they are everywhere (`the`, `not`, `ref`), and alone they identify nobody.
 */
export const FREE_TEXT_MINIMUM = 4;

function learnable(value: string): boolean {
  if (value.length < FREE_TEXT_MINIMUM || value.includes(MASK)) return false;
  // A value of punctuation alone would be masked inside any text that holds the same punctuation.
  if (!/[\p{L}\p{N}]/u.test(value)) return false;
  // Short numbers (counts, years, amounts) are everywhere in a report; a number identifies only when long.
  return !(/^\d+$/.test(value) && value.length < 5);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What ends a token before a value, besides a character that is neither a letter nor a digit: an
 * escape of an ASCII character, URL (`%20Smith`, `%2CSmith`) or JSON (`\nSmith`). A UTF-8 byte
 * above `%7F` is part of a letter (`%C3%A9`), so it does not end a token.
 */
const ESCAPE_BEFORE = String.raw`%[0-7][0-9A-Fa-f]|\\[bfnrt]`;

/**
 * Where a masked value may begin and end: only at the edge of a whole token, never `val` inside
 * `invalid`, nor `Smith` inside `Smithson`. A value whose edge is a letter needs no letter or digit
 * beside it; one whose edge is a digit needs only no digit beside it, so that a birth date inside
 * a date-time (`1980-04-12T09:00`) or after a comparator (`eq1980-04-12`) is still masked; an edge
 * that is punctuation (`+44 ...`) bounds itself. Written once for every value (the value's own
 * edge is read by a look-ahead at its first character and a look-behind at its last), so that the
 * pattern of a run's values grows by the values alone.
 */
const TOKEN_START = String.raw`(?:(?<![\p{L}\p{N}])|(?<=${ESCAPE_BEFORE})|(?<=\p{L})(?=\p{N})|(?=[^\p{L}\p{N}]))`;
const TOKEN_END = String.raw`(?:(?![\p{L}\p{N}])|(?<=\p{N})(?=\p{L})|(?<=[^\p{L}\p{N}]))`;

/**
 * The personal values seen in a run (and the configured ones), masked wherever they appear in
 * text afterwards as a whole token (see {@link TOKEN_START}), in every form a value takes in text:
 * raw, URL-encoded (`%20` and `+`) and JSON-escaped. Redactors derived with `with()` share one
 * store. Masking by value, never by a piece of a word, keeps messages readable: a name `val` sent
 * in a search must not turn `invalid` into `in****id`.
 */
export class PersonalValues {
  private readonly values = new Set<string>();
  private pattern: RegExp | undefined;

  learn(value: string, kind: PersonalKind = 'value'): void {
    if (kind === 'weak') return;
    const whole = value.trim();
    const parts =
      kind === 'name' ? whole.split(/[\s,]+/).filter((w) => !TITLES.has(w.toLowerCase().replace(/\.$/, ''))) : [];
    for (const v of [whole, ...parts]) {
      if (!learnable(v) || this.values.has(v)) continue;
      this.values.add(v);
      this.pattern = undefined;
    }
  }

  get size(): number {
    return this.values.size;
  }

  has(value: string): boolean {
    return this.values.has(value);
  }

  mask(text: string): string {
    if (this.values.size === 0 || text === '') return text;
    this.pattern ??= this.compile();
    return text.replace(this.pattern, MASK);
  }

  private compile(): RegExp {
    const forms = new Set<string>();
    for (const v of this.values) {
      forms.add(v);
      forms.add(encodeURIComponent(v));
      forms.add(new URLSearchParams({ v }).toString().slice(2));
      forms.add(JSON.stringify(v).slice(1, -1));
    }
    // Longest first, so that a value containing another is masked whole.
    // Should the longest not end a token, the alternation backtracks to the next one that does.
    const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
    return new RegExp(`${TOKEN_START}(?:${alternatives.join('|')})${TOKEN_END}`, 'gu');
  }
}

// ---------------------------------------------------------------------------------------------
// Operations and fixtures

/**
 * Operations whose exchanges carry only public data (Document 2: code sets, practitioner and
 * location lookups, insurers, the address gazetteer, the practice register, booking practitioners).
 * Their exchanges are masked for secrets only, so that register searches by `family`, `given` or
 * postcode keep their evidence even when a member shares a practitioner's name.
 */
const PUBLIC_OPERATIONS = new Set(operations.filter((op) => op.document === 'D2').map((op) => op.id));

export function isPublicOperation(operationId: string | undefined): boolean {
  return operationId !== undefined && PUBLIC_OPERATIONS.has(operationId);
}

/**
 * The personal values a config's fixtures name (member searches, membership numbers, the hospital
 * claim search's patient name and birth date ...), found by the same field names as in exchanges,
 * so that they are masked in every text from the start of a run.
 */
export function personalValuesOf(fixtures: Fixtures): string[] {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (isRecord(v)) {
      for (const [k, child] of Object.entries(v)) {
        const kind =
          personalParameter(k) ?? (Object.hasOwn(PERSONAL_MEMBERS, k) ? leafKind(PERSONAL_MEMBERS[k]) : undefined);
        if (typeof child === 'string' && kind !== undefined) {
          if (kind !== 'weak' && child !== '') out.push(child);
        } else visit(child);
      }
    }
  };
  visit(fixtures);
  return [...new Set(out)];
}
