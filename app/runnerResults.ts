/**
 * The one place that makes the results the runner decides (core/decidedOutcomes.ts): an operation
 * out of scope, an operation addressed (or not) by its discovery key, an operation the suites never
 * judged, a suite that crashed. Ids and summaries come from the table, never spelt here.
 */
import { capabilityRowsOf } from '../spec/capabilities.ts';
import { loadRequirements, type Requirement } from '../spec/requirements.ts';
import type { Operation } from '../spec/types.ts';
import type { DecidedOutcome } from '../core/decidedOutcomes.ts';
import {
  ADDRESS_HAS_DOCUMENTED_PATH,
  DISCOVERY_KEY_PRESENT,
  OPERATION_IN_SCOPE,
  SUITE_RAN,
} from '../core/decidedOutcomes.ts';
import { DOCUMENTED_LOCATIONS } from '../core/discovery.ts';
import type { Unaddressed } from '../core/discovery.ts';
import type { WorkerEvent, WorkerResult } from '../core/events.ts';

/** A runner-decided result. */
export function runnerResult(
  outcome: DecidedOutcome,
  fields: Omit<WorkerResult, 'check' | 'summary' | 'requirements' | 'level'> &
    Partial<Pick<WorkerResult, 'requirements' | 'level'>>,
): WorkerResult {
  return { check: outcome.id, summary: outcome.summary, requirements: [], level: 'MUST', ...fields };
}

/** An operation the config leaves out (reservedOperations: omit, DEC-D1-33). */
export const omittedByConfig = (op: Operation): WorkerResult =>
  runnerResult(OPERATION_IN_SCOPE, {
    operation: op.id,
    level: 'INFO',
    status: 'omit',
    message: "Reserved for the operator's products and omitted by the config (reservedOperations: omit, DEC-D1-33)",
  });

/** What the discovery of one operation's address showed, as far as the rows it judges care. */
export interface AddressJudged {
  /** Why there is no address (core/discovery.ts addressOf); absent when there is one. */
  lacking?: Unaddressed['lacking'];
  /**
   * The configured document URL has the form the documents fix for its service (claims,
   * contracts): only then is the document's location judged.
   */
  documentedLocation: boolean;
}

/**
 * Testable requirements that the discovery of an operation's address judges, each only where its
 * words are: the ones stating that the operation is addressed by its key or that addresses come
 * from a discovery document holding every key; the one stating where the document is published,
 * where the configured address has that form and the document was found there or nothing usable
 * was; and, when the operation has no address, the rows saying its service offers it
 * (spec/capabilities.ts). Without `judged`: every row the result may cite.
 */
export function addressRequirementsOf(op: Operation, judged?: AddressJudged): string[] {
  const rows = loadRequirements('server').filter((r) => r.notTestedReason === '' && r.operations.includes(op.id));
  const location = (r: Requirement) => /discovery document .*\bpublished at\b/i.test(r.text);
  const addressing = rows
    .filter((r) => r.text.includes(`\`${op.discoveryKey}\``) || /discovery document/i.test(r.text))
    .filter(
      (r) =>
        !location(r) ||
        judged === undefined ||
        (judged.documentedLocation && (judged.lacking === undefined || judged.lacking === 'document')),
    )
    .map((r) => r.id);
  const offered = judged === undefined || judged.lacking !== undefined ? capabilityRowsOf(op.id) : [];
  return [...addressing, ...offered.filter((id) => !addressing.includes(id))];
}

/** The discovery document gives (or does not give) the operation's address by its key. */
export const addressedByKey = (
  op: Operation,
  address: { url: string } | Unaddressed,
  exchange: string | undefined,
  documentedLocation = false,
): WorkerResult =>
  runnerResult(DISCOVERY_KEY_PRESENT, {
    operation: op.id,
    requirements: addressRequirementsOf(op, {
      documentedLocation,
      ...('url' in address ? {} : { lacking: address.lacking }),
    }),
    status: 'url' in address ? 'pass' : 'fail',
    message: 'url' in address ? `${op.discoveryKey} = ${address.url}` : address.problem,
    exchange,
  });

/** A path as compared: percent-decoded segment by segment, without a trailing slash. */
function comparablePath(pathname: string): string {
  const segments = pathname.split('/').map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  return segments.join('/').replace(/\/+$/, '');
}

/**
 * The discovered address has the path the documents give it under its service's base, where that
 * base is known: the service's document is published where the documents fix it (claims,
 * contracts) and the configured URL has that form, so `{claims_url}` is the configured URL without
 * `/.well-known/api-configuration` (D1-4.6-01: "GET `{claims_url}/claimresponse/$batch`"). The
 * path parameters the suite appends are left out (DEC-D1-09). Only the path is compared, decoded
 * and without a trailing slash: a host name or port the server publishes for itself (an alias of
 * the configured one) is its own. Cites the rows naming the operation's key and a path under that
 * base. Undefined where nothing is judged.
 */
export function documentedPathResult(
  op: Operation,
  address: string,
  base: string | undefined,
  exchange: string | undefined,
): WorkerResult | undefined {
  const location = DOCUMENTED_LOCATIONS[op.service];
  if (base === undefined || location === undefined || !op.documentedPath.startsWith(`${location.base}/`)) return;
  const documented = op.documentedPath.split(/[ ?]/)[0] ?? op.documentedPath;
  const withoutParameters =
    op.pathSuffix !== '' && documented.endsWith(op.pathSuffix)
      ? documented.slice(0, -op.pathSuffix.length)
      : documented;
  const rows = loadRequirements('server')
    .filter((r) => r.notTestedReason === '' && r.operations.includes(op.id))
    .filter((r) => r.text.includes(`\`${op.discoveryKey}\``) && r.text.includes(`${location.base}/`))
    .map((r) => r.id);
  if (rows.length === 0) return;
  let expected: URL;
  let received: URL;
  try {
    expected = new URL(base + withoutParameters.slice(location.base.length));
    received = new URL(address);
  } catch {
    return; // an address that is not a URL is discovery-key-present's to judge
  }
  const same = comparablePath(expected.pathname) === comparablePath(received.pathname);
  return runnerResult(ADDRESS_HAS_DOCUMENTED_PATH, {
    operation: op.id,
    requirements: rows,
    status: same ? 'pass' : 'fail',
    message: same
      ? `${op.discoveryKey} = ${address} (${withoutParameters})`
      : `Expected ${op.discoveryKey} to address ${withoutParameters}, the path ${comparablePath(expected.pathname)} under ${location.base} = ${base}, received ${address}`,
    exchange,
  });
}

/**
 * An addressed, selected operation on which the suites recorded nothing was not judged at all
 * (its tests were filtered out or never collected): a MUST error, so the run cannot look
 * conformant on discovery alone. Omitted destructive steps are results, so they do not count.
 */
export function silentOperations(
  active: readonly Operation[],
  addresses: Record<string, string>,
  events: readonly WorkerEvent[],
  interrupted = false,
): WorkerResult[] {
  const judged = new Set(events.flatMap((e) => (e.type === 'check-evaluated' ? [e.result.operation] : [])));
  return active
    .filter((op) => addresses[op.id] !== undefined && !judged.has(op.id))
    .map((op) =>
      runnerResult(SUITE_RAN, {
        operation: op.id,
        status: 'error',
        message: interrupted
          ? 'Not judged: the run was interrupted (Ctrl-C) before its suite recorded a result'
          : 'Expected the suites to record results for this operation, received none (were its tests filtered out?)',
      }),
    );
}

/** A suite step or file that stopped for a reason other than a recorded MUST failure. */
export const suiteCrashed = (operation: string, message: string, test?: string): WorkerResult =>
  runnerResult(SUITE_RAN, { operation, status: 'error', message, ...(test ? { test } : {}) });
