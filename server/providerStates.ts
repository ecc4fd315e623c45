/**
 * Provider states of the sandbox (pacts/providerStates.ts is the catalogue): the state endpoint
 * `POST /_pact/provider-states` that Pact's verifier calls before (`setup`) and after
 * (`teardown`) each interaction. Every setup starts from the seed data, so interactions that
 * change data (acknowledge a batch, delete a patient or a payor) can run in any order and again:
 * the acknowledged batch is re-seeded, the deleted patient is back. Issued tokens survive a reset,
 * so a verification's credentials stay valid from the first interaction to the last.
 */
import { SEED, type Seed } from './fixtures/seed.ts';
import { createMemoryRepository } from './repo/memoryRepository.ts';
import type { Repository } from './repo/repository.ts';

/** The repository methods that hold credentials and sessions: kept across a reset. */
const TOKEN_METHODS = [
  'client',
  'issueToken',
  'clientForToken',
  'issueUserTokens',
  'refreshUserTokens',
  'issueDiaryToken',
  'accessGrant',
  'refreshGrant',
  'revokeAccessToken',
  'revokeRefreshToken',
  'revokeSession',
  'restoreRefreshGrant',
] as const satisfies readonly (keyof Repository)[];

export interface ResettableRepository {
  /** The repository the sandbox serves from; it always reads the current data. */
  repo: Repository;
  /** Back to the seed data (tokens and sessions kept). */
  reset(): void;
}

/** A repository whose data can go back to the seed while its tokens and sessions stay. */
export function resettableRepository(seed: Seed = SEED): ResettableRepository {
  const tokens = createMemoryRepository(seed);
  let data = createMemoryRepository(seed);
  const tokenMethods = new Set<string>(TOKEN_METHODS);
  // A plain object of delegating methods, not a Proxy: faults wrap the repository by spreading it
  // (`{ ...repo, removeBatch }`), which copies own properties only.
  const repo = Object.fromEntries(
    Object.keys(tokens).map((name) => [
      name,
      (...args: unknown[]) => {
        const source = (tokenMethods.has(name) ? tokens : data) as unknown as Record<
          string,
          (...a: unknown[]) => unknown
        >;
        return source[name](...args);
      },
    ]),
  ) as unknown as Repository;
  return {
    repo,
    reset() {
      data = createMemoryRepository(seed);
    },
  };
}

/** The body Pact's verifier posts (providerStatesSetupUrl with body: true). */
export interface ProviderStateChange {
  state: string;
  params: Record<string, unknown>;
  action: 'setup' | 'teardown';
}

export interface StateReply {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The values each state promises, in the sandbox's seed data (server/fixtures/*.ts, the same data
 * as server/demo-config.json's fixtures). Keys are the operation parameters they fill.
 */
export const SANDBOX_STATE_VALUES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'a member who matches once': {
    insurerIdentifier: 'ppp',
    firstInitial: 'J',
    lastName: 'Smith',
    dateOfBirth: '1980-04-12',
  },
  'a member who matches once by membership number': { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' },
  'a member who matches several times': {
    insurerIdentifier: 'nuh',
    firstInitial: 'A',
    lastName: 'Jones',
    dateOfBirth: '1975-09-30',
  },
  'an authorisation exists': { authCode: 'AUTH-0001' },
  'remittance summaries exist': {},
  'a remittance summary exists': { remittance_summary_id: 'RS-0001' },
  'pending remittance batches exist': {},
  'a pending remittance batch': { id: 'BATCH-1001' },
  'hospital claims were completed on a day': { dateCompleted: '2026-03-14' },
  'a hospital claim matches the search': {
    dateCompleted: '2026-03-14',
    treatmentSiteName: 'St Elsewhere Hospital',
    patientLastName: 'Smith',
    patientDateOfBirth: '1980-04-12',
  },
  'bills exist for an insurer': { insurerid: 'bup' },
  'a bill exists': { claimId: 'BILL-0001', isArchived: 'false' },
  'a code set exists': { set_name: 'service-type' },
  'practitioners match a lookup text': { text: 'Smith' },
  'locations match a lookup text': { text: 'London' },
  'insurers exist': {},
  'an insurer with control parameters': { insurerId: 'INS001' },
  'addresses match a search text': { text: 'Downing Street' },
  'an address item exists': { id: 'GB|RM|A|10001' },
  'a postcode exists': { postcode: 'SW1A 2AA' },
  'register practitioners exist': {},
  'a register practitioner with a photo': { practitionerId: 'PR-0001' },
  'register practitioner roles exist': {},
  'booking practitioners exist': {},
  'a booking practitioner exists': { practitionerId: 'BP-0001' },
  'booking practitioner roles exist': {},
  'a booking practitioner role exists': { practitionerRoleId: 'BR-0001' },
  'a signed-in user': {},
  'a product code for the user': { code: 'CODE-0001' },
  'an account event': { sns_id: 'SNS-0001' },
  'a site with users': { siteId: 'SITE001' },
  'a user session to end': {},
  'a token to revoke': { token_type_hint: 'access_token' },
  'a user signed in through an identity provider': { idp: 'nhs', redirect_uri: 'https://app.example/callback' },
  'a valid diary authorisation code': { Code: 'DIARY-OK' },
  'a diary session': {},
  'a patient can be created': {},
  'a patient exists': { patient_id: 'PAT-0001' },
  'an inactive patient': { patient_id: 'PAT-0002' },
  'a condition exists': { condition_id: 'COND-0001' },
  'a site with price contracts': { site: 'SITE001' },
  'contract types exist': {},
  'a site with payors': { siteId: 'SITE001' },
  'a payor exists': { site: 'SITE001', payorId: 'Organization/bup', payorType: 'I', providerGroup: 'CT-0003' },
  'a contact payor exists': {
    site: 'SITE001',
    payorId: 'Person/CN-0001',
    payorType: 'C',
    providerGroup: 'CT-0004',
  },
  'a contract service exists': { site: 'SITE001', indStdCode: 'FUCONS', indStdCodeScheme: 'ISC' },
  'a contract procedure exists': {
    site: 'SITE001',
    indStdCode: 'ENDO',
    indStdCodeScheme: 'ISC',
    procedureCode: 'G4500',
    procedureScheme: 'CCSD',
  },
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the verifier's body; a one-line reason when it is not a state change. */
export function parseStateChange(rawBody: string): ProviderStateChange | string {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return 'Expected a JSON body {state, params, action}, received a body that does not parse';
  }
  if (!isRecord(body) || typeof body.state !== 'string')
    return 'Expected a JSON body with a string member state, received none';
  const action = body.action ?? 'setup';
  if (action !== 'setup' && action !== 'teardown')
    return `Expected action setup or teardown, received ${JSON.stringify(action)}`;
  return { state: body.state, params: isRecord(body.params) ? body.params : {}, action };
}

/**
 * Applies one state change. Setup resets the data to the seed and answers the values the
 * interaction may use (Pact injects them where the pact says `fromProviderState`); teardown has
 * nothing to undo, the next setup resets. An unknown state is 400: the pact names data the
 * sandbox does not know how to arrange.
 */
export async function applyStateChange(change: ProviderStateChange, data: ResettableRepository): Promise<StateReply> {
  const values = SANDBOX_STATE_VALUES[change.state];
  if (values === undefined)
    return { status: 400, body: { error: `Expected a state of the catalogue, received ${change.state}` } };
  if (change.action === 'teardown') return { status: 200, body: {} };
  data.reset();
  return { status: 200, body: { ...values } };
}
