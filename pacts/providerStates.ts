/**
 * The provider-state catalogue: every state a reference interaction (pacts/generate.ts) needs,
 * with its parameters and the data behind it. The sandbox implements each one
 * (server/providerStates.ts); a partner server implements the same names at its own state
 * endpoint (pacts/README.md), or a verification reads the values from the config's fixtures
 * (`stateSource: 'fixtures'`), where `fixture` names the config path of each parameter.
 *
 * Parameter names are the names of the operation parameters they fill (spec/operations.ts), so
 * one rule builds every request: a parameter of the operation takes the state's value of that name.
 * A partner's pact may name a state with values of its own: `arrangeStates` (below) puts them in
 * the sandbox's seed where it can.
 */
import type { Seed } from '../server/fixtures/seed.ts';
import type { Member } from '../server/repo/model.ts';

export interface StateParameter {
  /** The operation parameter it fills (path, query or form). */
  name: string;
  meaning: string;
  /** The sandbox's value, used as the pact's example. */
  example: string;
  /**
   * Where the config names the value (`fixtures.<path>`, or `siteId` for the config's site):
   * undefined when no fixture names it, and the state is then skipped in a fixtures run.
   */
  fixture?: string;
}

export interface ProviderStateDefinition {
  name: string;
  /** What the provider must hold (or create) for the state. */
  data: string;
  params: readonly StateParameter[];
  /** The operations whose reference interactions use it. */
  operations: readonly string[];
}

const p = (name: string, meaning: string, example: string, fixture?: string): StateParameter => ({
  name,
  meaning,
  example,
  ...(fixture ? { fixture } : {}),
});

const state = (
  name: string,
  data: string,
  operations: readonly string[],
  params: readonly StateParameter[] = [],
): ProviderStateDefinition => ({ name, data, params, operations });

export const PROVIDER_STATES: readonly ProviderStateDefinition[] = [
  state(
    'a member who matches once',
    'Exactly one member matches insurer, first initial, last name and date of birth (Find Member v2, one step).',
    ['find-member-v2'],
    [
      p('insurerIdentifier', 'Insurer code', 'ppp', 'findMemberV2.single.insurerIdentifier'),
      p('firstInitial', 'First initial', 'J', 'findMemberV2.single.firstInitial'),
      p('lastName', 'Last name', 'Smith', 'findMemberV2.single.lastName'),
      p('dateOfBirth', 'Date of birth YYYY-MM-DD', '1980-04-12', 'findMemberV2.single.dateOfBirth'),
    ],
  ),
  state(
    'a member who matches once by membership number',
    'Exactly one member of the insurer has this membership number (Find Member v1).',
    ['find-member-v1'],
    [
      p('insurerIdentifier', 'Insurer code', 'bup', 'findMemberV1.single.insurerIdentifier'),
      p('membershipNumber', "Insurer's member id", 'BUP100001', 'findMemberV1.single.membershipNumber'),
    ],
  ),
  state(
    'a member who matches several times',
    'Several members match the step-1 fields (Find Member v2 answers MULTIPLE_MATCH_FOUND).',
    ['find-member-v2'],
    [
      p('insurerIdentifier', 'Insurer code', 'nuh', 'findMemberV2.multipleResolvedByRefine.insurerIdentifier'),
      p('firstInitial', 'First initial', 'A', 'findMemberV2.multipleResolvedByRefine.firstInitial'),
      p('lastName', 'Last name', 'Jones', 'findMemberV2.multipleResolvedByRefine.lastName'),
      p('dateOfBirth', 'Date of birth', '1975-09-30', 'findMemberV2.multipleResolvedByRefine.dateOfBirth'),
    ],
  ),
  state(
    'an authorisation exists',
    'A pre-authorisation of the caller site with this authorisation code.',
    ['search-authorisation'],
    [p('authCode', 'Authorisation code', 'AUTH-0001', 'authorisation.authCode')],
  ),
  state('remittance summaries exist', 'Remittance summaries of the caller site (any number).', [
    'search-remittance-summary',
  ]),
  state(
    'a remittance summary exists',
    'A remittance summary of the caller site with its details.',
    ['search-remittance-detail'],
    [p('remittance_summary_id', 'Remittance summary id', 'RS-0001', 'remittance.summaryId')],
  ),
  state('pending remittance batches exist', 'Pending batches of the caller site (any number).', [
    'list-pending-remittances',
  ]),
  state(
    'a pending remittance batch',
    "A pending batch of the caller site; an acknowledged one is pending again (the state is re-arranged before each interaction). No fixture names one of the caller's own batches.",
    ['get-remittance-details', 'ack-remittance'],
    [p('id', 'Batch id', 'BATCH-1001')],
  ),
  state(
    'hospital claims were completed on a day',
    'Hospital claims whose services were rendered on this day.',
    ['list-hospital-claims'],
    [p('dateCompleted', 'Day YYYY-MM-DD', '2026-03-14', 'hospitalClaims.dateCompleted')],
  ),
  state(
    'a hospital claim matches the search',
    'A hospital claim of this day, treatment site and patient.',
    ['search-hospital-claims'],
    [
      p('dateCompleted', 'Day YYYY-MM-DD', '2026-03-14', 'hospitalClaims.search.dateCompleted'),
      p('treatmentSiteName', 'Treatment site', 'St Elsewhere Hospital', 'hospitalClaims.search.treatmentSiteName'),
      p('patientLastName', 'Patient last name', 'Smith', 'hospitalClaims.search.patientLastName'),
      p('patientDateOfBirth', 'Patient date of birth', '1980-04-12', 'hospitalClaims.search.patientDateOfBirth'),
    ],
  ),
  state(
    'bills exist for an insurer',
    'Bills of this insurer.',
    ['search-bills'],
    [p('insurerid', 'Insurer id', 'bup', 'bills.insurerid')],
  ),
  state(
    'a bill exists',
    'A bill with this id and archive flag.',
    ['get-bill'],
    [
      p('claimId', 'Bill (Claim) id', 'BILL-0001', 'bills.billId'),
      p('isArchived', 'true or false', 'false', 'bills.isArchived'),
    ],
  ),
  state(
    'a code set exists',
    'The documented master code set (its entries may be empty).',
    ['get-code-set'],
    [p('set_name', 'A documented code set name', 'service-type')],
  ),
  state(
    'practitioners match a lookup text',
    'Practitioners whose name matches the text.',
    ['lookup-practitioners'],
    [p('text', 'Search text', 'Smith', 'lookups.practitionerText')],
  ),
  state(
    'locations match a lookup text',
    'Locations whose name matches the text.',
    ['lookup-locations'],
    [p('text', 'Search text', 'London', 'lookups.locationText')],
  ),
  state('insurers exist', 'The insurer list.', ['list-insurers']),
  state(
    'an insurer with control parameters',
    'An insurer with control parameters.',
    ['get-insurer-control-parameters'],
    [p('insurerId', 'Insurer id', 'INS001', 'lookups.insurerId')],
  ),
  state(
    'addresses match a search text',
    'Address items matching the text.',
    ['search-address'],
    [p('text', 'Search string', 'Downing Street', 'address.searchText')],
  ),
  state(
    'an address item exists',
    'An item of type Address with this key (no fixture names one).',
    ['retrieve-address'],
    [p('id', 'Address key', 'GB|RM|A|10001')],
  ),
  state(
    'a postcode exists',
    'A postcode the geo-coding knows.',
    ['geocode-postcode', 'validate-postcode'],
    [p('postcode', 'Postcode', 'SW1A 2AA', 'address.postcode')],
  ),
  state('register practitioners exist', 'Practitioners of the private-practice register.', [
    'search-register-practitioners',
  ]),
  state(
    'a register practitioner with a photo',
    'A register practitioner with a profile photo.',
    ['get-practitioner-photo'],
    [p('practitionerId', 'Practitioner id', 'PR-0001', 'register.photoPractitionerId')],
  ),
  state('register practitioner roles exist', 'Practitioner roles of the register.', [
    'search-register-practitioner-roles',
  ]),
  state('booking practitioners exist', 'Booking practitioners.', ['search-booking-practitioners']),
  state(
    'a booking practitioner exists',
    'A booking practitioner with this id.',
    ['get-booking-practitioner'],
    [p('practitionerId', 'Practitioner id', 'BP-0001', 'booking.practitionerId')],
  ),
  state('booking practitioner roles exist', 'Booking practitioner roles.', ['search-booking-practitioner-roles']),
  state(
    'a booking practitioner role exists',
    'A booking practitioner role with this id.',
    ['get-booking-practitioner-role'],
    [p('practitionerRoleId', 'Practitioner role id', 'BR-0001', 'booking.practitionerRoleId')],
  ),
  state(
    'a signed-in user',
    "A user (config credential `user`) connected to the config's site, with features, sites and subscriptions.",
    [
      'introspect',
      'list-features',
      'list-authorised-sites-v1',
      'list-authorised-sites-v2',
      'list-site-subscriptions',
      'get-user-details',
    ],
  ),
  state(
    'a product code for the user',
    'A code the product and service page generated for the user.',
    ['get-user-info'],
    [p('code', 'Product code', 'CODE-0001', 'accounts.userInfoCode')],
  ),
  state(
    'an account event',
    'An event with this sns_id.',
    ['get-event-info'],
    [p('sns_id', 'Event id', 'SNS-0001', 'accounts.snsId')],
  ),
  state(
    'a site with users',
    "The config's site, with users the signed-in user may see.",
    ['get-site-users'],
    [p('siteId', 'Site id', 'SITE001', 'siteId')],
  ),
  state('a user session to end', 'A fresh sign-in of the user (credential `user`); logout ends it.', ['logout']),
  state(
    'a token to revoke',
    'A fresh access token of the user (credential `user`); the request filter puts it in the form.',
    ['revoke-token'],
    [p('token_type_hint', 'Kind of token', 'access_token')],
  ),
  state(
    'a user signed in through an identity provider',
    'The client (Basic credential `client`) has a linked identity-provider sign-in for this redirect URI.',
    ['get-idp-token-details'],
    [
      p('idp', 'Identity provider', 'nhs', 'tokenDetails.idp'),
      p('redirect_uri', 'Registered redirect URI', 'https://app.example/callback', 'tokenDetails.redirectUri'),
    ],
  ),
  state(
    'a valid diary authorisation code',
    'An authorisation code the diary exchanges for a token (response 2).',
    ['diary-post-auth'],
    [p('Code', 'Authorisation code', 'DIARY-OK', 'diary.validCode')],
  ),
  state('a diary session', 'A diary token (from fixture diary.validCode) that the request filter sends.', [
    'diary-refresh-token',
    'list-episode-types',
    'list-appointment-statuses',
    'list-recurrence-types',
  ]),
  state('a patient can be created', "The config's site accepts new patients.", ['create-patient']),
  state(
    'a patient exists',
    "An active patient of the config's site (re-created when an earlier interaction deleted it); conditions can be added to it.",
    ['get-patient', 'update-patient', 'delete-patient', 'create-condition'],
    [p('patient_id', 'Patient id', 'PAT-0001')],
  ),
  state(
    'an inactive patient',
    "An inactive patient of the config's site.",
    ['get-patient'],
    [p('patient_id', 'Patient id', 'PAT-0002', 'patients.inactivePatientId')],
  ),
  state(
    'a condition exists',
    'A condition of a patient of the site (re-created when an earlier interaction deleted it).',
    ['delete-condition'],
    [p('condition_id', 'Condition id', 'COND-0001')],
  ),
  state(
    'a site with price contracts',
    "The config's site with price contracts (services, procedures, fees).",
    ['get-effective-prices', 'set-contract-service', 'set-contract-service-with-procedure', 'set-contract-price'],
    [p('site', 'Site id', 'SITE001', 'siteId')],
  ),
  state('contract types exist', 'The contract type and sub-type value sets.', [
    'list-contract-types',
    'list-contract-subtypes',
  ]),
  state(
    'a site with payors',
    "The config's site with its payors.",
    ['list-site-payors', 'upsert-payor', 'upsert-contact-payor'],
    [p('siteId', 'Site id', 'SITE001', 'siteId')],
  ),
  state(
    'a payor exists',
    'An insurer payor of the site (re-created when an earlier interaction deleted it).',
    ['delete-payor'],
    [
      p('site', 'Site id', 'SITE001'),
      p('payorId', 'Organization/<payor>', 'Organization/bup'),
      p('payorType', 'I', 'I'),
      p('providerGroup', 'Contract id of the payor', 'CT-0003'),
    ],
  ),
  state(
    'a contact payor exists',
    'A contact payor of the site (re-created when an earlier interaction deleted it).',
    ['delete-contact-payor'],
    [
      p('site', 'Site id', 'SITE001'),
      p('payorId', 'Person/<contact>', 'Person/CN-0001'),
      p('payorType', 'C', 'C'),
      p('providerGroup', 'Contract id of the payor', 'CT-0004'),
    ],
  ),
  state(
    'a contract service exists',
    'A service without procedures in a price contract of the site.',
    ['delete-contract-service'],
    [
      p('site', 'Site id', 'SITE001'),
      p('indStdCode', 'Service code', 'FUCONS'),
      p('indStdCodeScheme', 'Service code scheme', 'ISC'),
    ],
  ),
  state(
    'a contract procedure exists',
    'A service with this procedure in a price contract of the site.',
    ['delete-contract-service-with-procedure'],
    [
      p('site', 'Site id', 'SITE001'),
      p('indStdCode', 'Service code', 'ENDO'),
      p('indStdCodeScheme', 'Service code scheme', 'ISC'),
      p('procedureCode', 'Procedure code', 'G4500'),
      p('procedureScheme', 'Procedure scheme', 'CCSD'),
    ],
  ),
];

const byName = new Map(PROVIDER_STATES.map((s) => [s.name, s]));

/** The state of this name; undefined when the catalogue has none. */
export const providerState = (name: string): ProviderStateDefinition | undefined => byName.get(name);

/** The example values of a state's parameters, by parameter name. */
export function stateExamples(s: ProviderStateDefinition): Record<string, string> {
  return Object.fromEntries(s.params.map((x) => [x.name, x.example]));
}

/**
 * A state's values from the config: the config's fixtures (and its site id), or the reason the
 * state cannot be arranged from them.
 */
export function stateFromFixtures(
  s: ProviderStateDefinition,
  config: { fixtures: unknown; siteId: string },
): { values: Record<string, string> } | { missing: string } {
  const values: Record<string, string> = {};
  for (const param of s.params) {
    if (param.fixture === undefined)
      return { missing: `no fixture names the ${param.name} of state "${s.name}" (${param.meaning})` };
    const value = param.fixture === 'siteId' ? config.siteId : valueAt(config.fixtures, param.fixture);
    if (value === undefined) return { missing: `fixture ${param.fixture} is not configured (state "${s.name}")` };
    values[param.name] = value;
  }
  return { values };
}

function valueAt(root: unknown, path: string): string | undefined {
  let node = root;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean' ? String(node) : undefined;
}

/**
 * A partner's pact names a state with its own parameters (`providerStates: [{ name, params }]`),
 * and its request then asks for that data (a patient `PAT-4242`, not the sandbox's `PAT-0001`).
 * The sandbox of `pact check` arranges what it can: its seed gets a copy of the record the state's
 * example names, under the pact's values, so the interaction's request finds its data. A state or
 * parameter it does not know, or values it cannot arrange, leave the interaction not verified (a
 * skip naming the state), never failed: neither the provider nor the consumer broke a rule.
 */
export interface UnarrangedState {
  name: string;
  params: Record<string, unknown>;
  /** One line: why the sandbox cannot arrange the state, ending "the interaction was not verified". */
  reason: string;
}

type Values = Readonly<Record<string, string>>;
/** A seed with one state's data added under the pact's values, or undefined when the seed lacks the example. */
type Arranger = (seed: Seed, values: Values, examples: Values, n: number) => Seed | undefined;

const lower = (v: string) => v.trim().toLowerCase();

/** The list with a copy of its example record under new values, replacing a record of the same key. */
function copied<T>(
  list: readonly T[],
  isExample: (r: T) => boolean,
  isReplaced: (r: T) => boolean,
  change: (copy: T) => T,
): T[] | undefined {
  const example = list.find(isExample);
  return example === undefined ? undefined : [...list.filter((r) => !isReplaced(r)), change(structuredClone(example))];
}

/** A member of the insurer takes that insurer's name and contact details from the seed, when it has one. */
function asMemberOf(m: Member, insurer: string, members: readonly Member[]): Member {
  const other = members.find((x) => x.insurer === insurer);
  if (other === undefined) return { ...m, insurer };
  return {
    ...m,
    insurer,
    insurerName: other.insurerName,
    ...(other.insurerEmail ? { insurerEmail: other.insurerEmail } : {}),
    ...(other.insurerPhone ? { insurerPhone: other.insurerPhone } : {}),
  };
}

const byFields = (v: Values) => (m: Member) =>
  m.insurer === v.insurerIdentifier &&
  lower(m.given).charAt(0) === lower(v.firstInitial).charAt(0) &&
  lower(m.family) === lower(v.lastName) &&
  m.birthDate === v.dateOfBirth;
const byNumber = (v: Values) => (m: Member) =>
  m.insurer === v.insurerIdentifier && lower(m.membershipNumber) === lower(v.membershipNumber);

/** The states the sandbox arranges with a pact's own values (the others only with their examples). */
const ARRANGERS: Readonly<Record<string, Arranger>> = {
  'a patient exists': (seed, v, e) => patientCopy(seed, v.patient_id, e.patient_id),
  'an inactive patient': (seed, v, e) => patientCopy(seed, v.patient_id, e.patient_id),
  'a condition exists': (seed, v, e) => {
    const conditions = copied(
      seed.conditions,
      (c) => c.resource.id === e.condition_id,
      (c) => c.resource.id === v.condition_id,
      (c) => ({ ...c, resource: { ...c.resource, id: v.condition_id } }),
    );
    return conditions && { ...seed, conditions };
  },
  'a pending remittance batch': (seed, v, e) => {
    const batches = copied(
      seed.batches,
      (b) => b.id === e.id,
      (b) => b.id === v.id,
      (b) => ({ ...b, id: v.id }),
    );
    return batches && { ...seed, batches };
  },
  // The one member the search finds: a copy of the example member under the pact's fields (any
  // member of the seed those fields would also find is left out, so that it still matches once).
  'a member who matches once': (seed, v, e, n) => {
    const members = copied(seed.members, byFields(e), byFields(v), (m) => ({
      ...asMemberOf(m, v.insurerIdentifier, seed.members),
      coverageId: `${m.coverageId}-${n}`,
      given: `${v.firstInitial.charAt(0).toUpperCase()}${m.given.slice(1)}`,
      family: v.lastName,
      birthDate: v.dateOfBirth,
    }));
    return members && { ...seed, members };
  },
  'a member who matches once by membership number': (seed, v, e, n) => {
    const members = copied(seed.members, byNumber(e), byNumber(v), (m) => ({
      ...asMemberOf(m, v.insurerIdentifier, seed.members),
      coverageId: `${m.coverageId}-${n}`,
      membershipNumber: v.membershipNumber,
    }));
    return members && { ...seed, members };
  },
};

function patientCopy(seed: Seed, id: string, example: string): Seed | undefined {
  const patients = copied(
    seed.patients,
    (p) => p.resource.id === example,
    (p) => p.resource.id === id,
    (p) => ({ ...p, resource: { ...p.resource, id } }),
  );
  return patients && { ...seed, patients };
}

const shown = (params: Record<string, unknown>) => JSON.stringify(params);

/**
 * The sandbox's seed with every state of the pact arranged under the pact's own parameters, and
 * the states it cannot arrange, each with its reason (pacts/check/againstSandbox.ts).
 */
export function arrangeStates(
  seed: Seed,
  states: readonly { name: string; params?: Record<string, unknown> }[],
): { seed: Seed; unarranged: UnarrangedState[] } {
  const unarranged: UnarrangedState[] = [];
  const seen = new Set<string>();
  let n = 0;
  for (const { name, params = {} } of states) {
    const key = `${name}\n${shown(params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const refuse = (why: string) =>
      unarranged.push({ name, params, reason: `Provider state "${name}" with params ${shown(params)} ${why}` });
    const s = providerState(name);
    if (s === undefined) {
      refuse('is unknown to the sandbox: the interaction was not verified');
      continue;
    }
    const examples = stateExamples(s);
    const unknown = Object.keys(params).filter((k) => !(k in examples));
    const odd = Object.entries(params).filter(([, v]) => !['string', 'number', 'boolean'].includes(typeof v));
    if (unknown.length > 0 || odd.length > 0) {
      const takes = s.params.length > 0 ? s.params.map((x) => x.name).join(', ') : 'no parameters';
      refuse(`is unknown to the sandbox (the state takes ${takes}): the interaction was not verified`);
      continue;
    }
    const values = { ...examples, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) };
    if (Object.entries(values).every(([k, v]) => examples[k] === v)) continue;
    const arranged = ARRANGERS[name]?.(seed, values, examples, ++n);
    if (arranged === undefined) {
      refuse(
        `cannot be arranged by the sandbox (it holds this state's data for ${shown(examples)} only): ` +
          'the interaction was not verified',
      );
      continue;
    }
    seed = arranged;
  }
  return { seed, unarranged };
}
