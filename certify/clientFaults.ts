/**
 * Client power (issue 31): each fault of the reference client (examples/reference-client), the
 * scenario that shows it, the check that must catch it and the rows its failure must cite. The
 * certification self-test (certify/certification.test.ts) runs every case on every `npm run test:full` (CI): a
 * MUST case must end in a MUST failure of its check citing each of its rows (exit 1), a SHOULD case
 * in a warning. `conformance faults --unproven --party client` lists the testable client MUST rows
 * no case proves, as the server side lists the rows no sandbox fault proves.
 */
import type { ClientFault } from '../examples/reference-client/referenceClient.ts';
import { loadRequirements, type Requirement } from '../spec/requirements.ts';

export interface ClientFaultCase {
  fault: ClientFault;
  scenario: string;
  check: string;
  status: 'fail' | 'warn';
  /** The rows the failure must cite (each a client row). */
  rows: readonly string[];
  /** Certify as an external integrator (default: as the operator's own product, which may call reserved operations). */
  external?: true;
}

const must = (
  fault: ClientFault,
  scenario: string,
  check: string,
  rows: string[],
  extra: Partial<ClientFaultCase> = {},
): ClientFaultCase => ({ fault, scenario, check, status: 'fail', rows, ...extra });

const should = (fault: ClientFault, scenario: string, check: string, rows: string[]): ClientFaultCase => ({
  fault,
  scenario,
  check,
  status: 'warn',
  rows,
});

export const CLIENT_FAULT_CASES: readonly ClientFaultCase[] = [
  must('no-site-id', 'find-member-two-step', 'client-sends-header', ['D1-1-12']),
  must('wrong-version-header', 'find-member-two-step', 'client-sends-header', ['D1-4.2-14']),
  must('no-refinement', 'find-member-two-step', 'client-refines-after-multiple-match', ['D1-4.2-15']),
  must('ack-before-get', 'batch-cycle', 'client-acknowledges-after-get', ['D1-4.8-04']),
  must('hard-coded-addresses', 'find-member-two-step', 'client-uses-discovered-address', ['D1-1-11']),
  must('hard-coded-addresses', 'address-drill-down', 'client-uses-discovered-address', ['D2-1-13']),
  must('hard-coded-addresses', 'patient-create', 'client-uses-discovered-address', ['D3-1-12']),
  must('fixed-paths', 'find-member-two-step', 'client-reads-discovery', ['D1-1-11']),
  must('fixed-paths', 'address-drill-down', 'client-reads-discovery', ['D2-1-13']),
  must('fixed-paths', 'patient-lifecycle', 'client-reads-discovery', ['D3-1-12']),
  should('blind-retry', 'expired-token', 'client-no-blind-retry', ['D1-7-25']),
  must('wrong-patient-id', 'patient-lifecycle', 'client-uses-created-patient-id', ['D3-4.4-22']),
  must('pipe-not-encoded', 'address-drill-down', 'client-encodes-pipe', ['D2-4.7-06']),
  must('retrieves-without-drill-down', 'address-drill-down', 'client-retrieves-address-item', ['D2-4.6-07']),
  should('stops-at-first-page', 'register-paging', 'client-pages-to-last-page', ['D2-4.9-18']),
  must('bearer-on-token-details', 'token-revoke-and-logout', 'client-sends-header', ['D3-5-12']),
  must('bearer-on-token-details', 'token-revoke-and-logout', 'client-authenticates-as-client', ['D3-5-12']),
  must('token-details-user-basic', 'token-revoke-and-logout', 'client-authenticates-as-client', ['D3-5-12']),
  must('token-details-token-in-query', 'token-revoke-and-logout', 'client-authenticates-as-client', ['D3-5-12']),
  must('revoke-without-client-headers', 'token-revoke-and-logout', 'client-revoke-names-client', ['D3-5-05']),
  must('revoke-as-json', 'token-revoke-and-logout', 'client-sends-header', ['D3-4.2-21']),
  must('acks-after-malformed-list', 'malformed-answer', 'client-acknowledges-after-get', ['D1-4.8-04']),
  must('acks-without-listing', 'batch-cycle', 'client-fetches-listed-batch', ['D1-4.7-04']),
  must('acks-without-listing', 'malformed-answer', 'client-fetches-listed-batch', ['D1-4.7-04']),
  must('date-not-iso', 'find-member-two-step', 'client-sends-documented-parameters', ['D1-4.2-15']),
  must('patient-body-invalid', 'patient-create', 'client-body-matches-schema', ['D3-4.4-21']),
  must('patient-with-own-id', 'patient-create', 'client-create-without-id', ['D3-4.4-21']),
  must('patient-json-content-type', 'patient-lifecycle', 'client-sends-header', ['D3-4.4-21', 'D3-4.4-23']),
  // The workspace refuses the request (400), so the scenario never completes: a failure all the same, exit 1.
  must('no-version-header', 'find-member-two-step', 'client-sends-header', ['D1-4.2-14']),
  must('form-as-text-plain', 'find-member-two-step', 'client-sends-header', ['D1-4.2-14']),
  must('uses-find-member-v1', 'find-member-two-step', 'client-avoids-deprecated', ['D1-4.1-16'], { external: true }),
];

/** The testable MUST rows of a client: the rows client power is counted over. */
export function testableClientMustRows(): Requirement[] {
  return loadRequirements('client').filter((r) => r.level === 'MUST' && r.notTestedReason === '');
}

/** The testable client MUST rows no client fault case proves, in table order. */
export function unprovenClientRows(cases: readonly ClientFaultCase[] = CLIENT_FAULT_CASES): Requirement[] {
  const proven = new Set(cases.filter((c) => c.status === 'fail').flatMap((c) => c.rows));
  return testableClientMustRows().filter((r) => !proven.has(r.id));
}

/**
 * The listing of `conformance faults --unproven --party client`: one line per unproven row (id,
 * text), then the summary line with how many rows the client faults prove.
 */
export function formatUnprovenClient(cases: readonly ClientFaultCase[] = CLIENT_FAULT_CASES): string[] {
  const rows = unprovenClientRows(cases);
  const total = testableClientMustRows().length;
  const faults = new Set(cases.map((c) => c.fault)).size;
  return [
    ...rows.map((r) => `${r.id}\tno client fault\t${r.text}`),
    `${rows.length} of ${total} testable client MUST rows proven by no client fault (${faults} client faults of the reference client, each caught by the certification self-test on every npm run test:full)`,
  ];
}
