/**
 * A partner's client of the API family, as a practice-management system would write it: Find
 * Member version 2 in two steps (Document 1, 4.2: a MULTIPLE_MATCH_FOUND answer is refined with
 * the optional fields), the remittance batch cycle (4.6 to 4.8: list, get, acknowledge once
 * imported) and a patient create (Document 3, 4.4). Addresses come from the discovery documents
 * (the caller passes what it read there); the token and site id come from the caller too.
 *
 * `faults` make it break one rule each, for the broken variants of the example's pact (see
 * README.md): a partner's real client has none.
 */

export type ClientFault =
  /** Sends no SU-SiteId header. */
  | 'no-site-id'
  /** Sends `SVC-API-Version: 3`, a version the documents do not define. */
  | 'unknown-version'
  /** Calls Find Member at an address of its own instead of the discovered one. */
  | 'hard-coded-address';

export interface PracticeClientOptions {
  /** Discovered addresses: `find_member_endpoint`, `get_remittance_details_endpoint`, `create_patient_endpoint`. */
  addresses: { findMember: string; batches: string; patients: string };
  token: string;
  siteId: string;
  faults?: readonly ClientFault[];
}

export interface MemberSearch {
  insurerIdentifier: string;
  firstInitial: string;
  lastName: string;
  dateOfBirth: string;
}

export interface Refinement {
  sex: string;
  postCode: string;
  policyActiveOn: string;
}

export interface Answer {
  status: number;
  body: unknown;
}

const FORM = 'application/x-www-form-urlencoded';

/** The error code of an OperationOutcome, when the body is one. */
export function outcomeCode(body: unknown): string | undefined {
  const issue = (body as { issue?: { details?: { coding?: { code?: string }[] } }[] } | undefined)?.issue?.[0];
  return issue?.details?.coding?.[0]?.code;
}

export class PracticeClient {
  constructor(private readonly options: PracticeClientOptions) {}

  #has(fault: ClientFault): boolean {
    return this.options.faults?.includes(fault) === true;
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      Authorization: `Bearer ${this.options.token}`,
      ...(this.#has('no-site-id') ? {} : { 'SU-SiteId': this.options.siteId }),
      ...extra,
    };
  }

  async #call(url: string, init: RequestInit): Promise<Answer> {
    const response = await fetch(url, init);
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  #findMemberOnce(fields: Record<string, string>): Promise<Answer> {
    const url = this.#has('hard-coded-address')
      ? new URL('/membership/member-search', this.options.addresses.findMember).toString()
      : this.options.addresses.findMember;
    return this.#call(url, {
      method: 'POST',
      headers: this.#headers({
        'Content-Type': FORM,
        'SVC-API-Version': this.#has('unknown-version') ? '3' : '2',
      }),
      body: new URLSearchParams(fields).toString(),
    });
  }

  /**
   * Find Member version 2: step 1 with the mandatory fields; on MULTIPLE_MATCH_FOUND, step 2 with
   * the optional fields as well (Document 1, 4.2). Never retries the same request.
   */
  async findMember(search: MemberSearch, refine: Refinement): Promise<Answer> {
    const first = await this.#findMemberOnce({ ...search });
    if (first.status !== 400 || outcomeCode(first.body) !== 'MULTIPLE_MATCH_FOUND') return first;
    return this.#findMemberOnce({ ...search, ...refine });
  }

  /** The ids of the site's pending remittance batches (4.6). */
  async pendingBatches(): Promise<string[]> {
    const answer = await this.#call(this.options.addresses.batches, { headers: this.#headers() });
    const entries = (answer.body as { entry?: { resource?: { id?: string } }[] } | undefined)?.entry ?? [];
    return entries.flatMap((e) => (e.resource?.id ? [e.resource.id] : []));
  }

  /** One batch's remittance details (4.7). */
  getBatch(id: string): Promise<Answer> {
    return this.#call(`${this.options.addresses.batches}/${encodeURIComponent(id)}`, { headers: this.#headers() });
  }

  /** Acknowledges a batch once it has been imported (4.8): after a successful get, never before. */
  async importAndAcknowledge(id: string, store: (batch: unknown) => void): Promise<Answer> {
    const batch = await this.getBatch(id);
    if (batch.status !== 200) return batch;
    store(batch.body);
    return this.#call(`${this.options.addresses.batches}/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      headers: this.#headers(),
    });
  }

  /** Creates a patient (Document 3, 4.4): version header and FHIR JSON. */
  createPatient(patient: Record<string, unknown>): Promise<Answer> {
    return this.#call(this.options.addresses.patients, {
      method: 'POST',
      headers: this.#headers({ 'Content-Type': 'application/fhir+json', 'SVC-API-Version': '1' }),
      body: JSON.stringify(patient),
    });
  }
}
