/**
 * Faults of the discovery documents (Documents 1, 2 and 3, section 1 and 4; DEC-D1-08, DEC-D2-01,
 * DEC-D3-01, DEC-D3-02), derived from the operation table: for every key of every service's
 * document, a document without that key (the operations it addresses are not offered); for the keys
 * of the two services whose base the documents name (`{claims_url}`, `{contracts_url}`), the key's
 * address moved to another path under it (caught by `address-has-documented-path`); and for the
 * two documents whose address the documents fix, nothing published there. Each is caught by the
 * runner's `discovery-key-present` on its operations, before any suite runs (so these faults share
 * fault batches among themselves, test/support/faultBatches.ts). Scenarios: discovery.test.ts.
 */
import { CAPABILITY_ROWS, capabilityRowsOf } from '../../../spec/capabilities.ts';
import { loadRequirements } from '../../../spec/requirements.ts';
import type { Operation, ServiceId } from '../../../spec/types.ts';
import { isObject } from '../../modifiers/json.ts';
import { DISCOVERY_PATHS } from '../../router/addresses.ts';
import { ApiError, errorReply } from '../../router/errors.ts';
import { SERVED_OPERATIONS } from '../../router/operationTable.ts';
import type { SandboxReply } from '../../router/types.ts';
import type { RowFault } from './types.ts';

const testableMust = () => loadRequirements('server').filter((r) => r.level === 'MUST' && r.notTestedReason === '');

/** "... published at `{claims_url}/.well-known/api-configuration`": the rows of a document's location. */
const isLocationRow = (text: string) => /discovery document .*\bpublished at\b/i.test(text);

/**
 * The rows a document without `key` breaks for its operations: the ones naming the key (the
 * operation is addressed by it), the ones saying the discovery document holds every key, and the
 * ones saying the service offers the operation (spec/capabilities.ts).
 */
function rowsLackingKey(key: string, ops: readonly Operation[]): string[] {
  const ids = ops.map((o) => o.id);
  const named = testableMust()
    .filter((r) => r.operations.some((o) => ids.includes(o)) && r.text.includes(`\`${key}\``))
    .map((r) => r.id);
  const holding = testableMust()
    .filter((r) => r.operations.some((o) => ids.includes(o)) && !CAPABILITY_ROWS.includes(r.id))
    .filter((r) => /discovery document/i.test(r.text) && !isLocationRow(r.text) && !named.includes(r.id))
    .map((r) => r.id);
  const offered = [...new Set(ids.flatMap(capabilityRowsOf))];
  return [...named, ...holding, ...offered];
}

const kebab = (key: string) => key.replace(/_/g, '-');

/** The document of `reply` without `key` (a document that is not a JSON object is left as it is). */
const withoutKey =
  (key: string) =>
  (reply: SandboxReply): SandboxReply => {
    if (reply.status !== 200 || !isObject(reply.body)) return reply;
    const { [key]: _dropped, ...rest } = reply.body;
    return { ...reply, body: rest };
  };

/** The keys of each service's document, with the operations each addresses, in table order. */
function keysOfServices(): { service: ServiceId; key: string; ops: Operation[] }[] {
  const out: { service: ServiceId; key: string; ops: Operation[] }[] = [];
  for (const op of SERVED_OPERATIONS) {
    const known = out.find((k) => k.service === op.service && k.key === op.discoveryKey);
    if (known) known.ops.push(op);
    else out.push({ service: op.service, key: op.discoveryKey, ops: [op] });
  }
  return out;
}

const KEY_MISSING: RowFault[] = keysOfServices().map(({ service, key, ops }) => ({
  name: `${service}-discovery-lacks-${kebab(key)}`,
  kind: 'discovery',
  rule: `${ops[0].document} 1 / ${ops.map((o) => o.section).join(', ')}: the ${service} discovery document holds the key \`${key}\` of ${ops.map((o) => o.id).join(', ')}`,
  description: `The ${service} discovery document leaves out the key \`${key}\`: ${ops.map((o) => o.id).join(', ')} cannot be addressed.`,
  operations: ops.map((o) => o.id),
  expectedCheck: 'discovery-key-present',
  rows: rowsLackingKey(key, ops),
  discovery: (reply, scope) => (scope.service === service ? withoutKey(key)(reply) : reply),
}));

/** The services whose base the documents name in each operation's path (`{claims_url}/...`). */
const BASED_SERVICES: readonly ServiceId[] = ['claims', 'contracts'];

/** The rows naming `key` with a path under the service's documented base (D1-4.6-01, D3-4.5-01 ...). */
function rowsOfDocumentedPath(key: string, ops: readonly Operation[]): string[] {
  const ids = ops.map((o) => o.id);
  return testableMust()
    .filter((r) => r.operations.some((o) => ids.includes(o)) && r.text.includes(`\`${key}\``))
    .filter((r) => /`\{(claims|contracts)_url\}\//.test(r.text))
    .map((r) => r.id);
}

/** The document of `reply` with `key`'s address moved under `/v2` of its service's base. */
const movedKey =
  (key: string) =>
  (reply: SandboxReply): SandboxReply => {
    if (reply.status !== 200 || !isObject(reply.body) || typeof reply.body[key] !== 'string') return reply;
    const url = new URL(reply.body[key]);
    url.pathname = url.pathname.replace(/^\/(claims|contracts)\//, '/$1/v2/');
    return { ...reply, body: { ...reply.body, [key]: url.toString() } };
  };

const KEY_MOVED: RowFault[] = keysOfServices()
  .filter(({ service }) => BASED_SERVICES.includes(service))
  .map(
    ({ service, key, ops }): RowFault => ({
      name: `${service}-discovery-moves-${kebab(key)}`,
      kind: 'discovery',
      rule: `${ops[0].document} ${ops.map((o) => o.section).join(', ')}: \`${key}\` addresses ${ops[0].documentedPath.split(/[ ?]/)[0]}`,
      description: `The ${service} discovery document names \`${key}\` at another path under its base (\`/v2\` inserted), where nothing is served: ${ops.map((o) => o.id).join(', ')} answer 404.`,
      operations: ops.map((o) => o.id),
      expectedCheck: 'address-has-documented-path',
      rows: rowsOfDocumentedPath(key, ops),
      discovery: (reply, scope) => (scope.service === service ? movedKey(key)(reply) : reply),
    }),
  )
  // "the same POST" (D3-4.5-30, -34) names no path: those keys' addresses are not compared.
  .filter((f) => f.rows.length > 0);

/** Nothing at a document's address: the answer of the sandbox to any path it does not serve. */
const notPublished =
  (service: ServiceId) =>
  (reply: SandboxReply, scope: { service: ServiceId }): SandboxReply =>
    scope.service === service
      ? errorReply(new ApiError(404, 'MSG_NOT_FOUND', `No resource at ${DISCOVERY_PATHS[service]}`), [])
      : reply;

const idsOf = (service: ServiceId) => SERVED_OPERATIONS.filter((o) => o.service === service).map((o) => o.id);

const NOT_PUBLISHED: RowFault[] = [
  {
    name: 'claims-discovery-not-published',
    kind: 'discovery',
    rule: 'D1 1: the discovery document of the clearing operations is published at `{claims_url}/.well-known/api-configuration`',
    description:
      'Nothing is published at `{claims_url}/.well-known/api-configuration` (HTTP 404): no clearing operation can be addressed.',
    operations: idsOf('claims'),
    expectedCheck: 'discovery-key-present',
    rows: ['D1-1-09'],
    discovery: notPublished('claims'),
  },
  {
    name: 'contracts-discovery-not-published',
    kind: 'discovery',
    rule: 'D3 1: the discovery document of the contract operations is published at `{contracts_url}/contract/.well-known/api-configuration`',
    description:
      'Nothing is published at `{contracts_url}/contract/.well-known/api-configuration` (HTTP 404): no contract operation can be addressed.',
    operations: idsOf('contracts'),
    expectedCheck: 'discovery-key-present',
    rows: ['D3-1-08', 'D3-1-05'],
    discovery: notPublished('contracts'),
  },
];

export const DISCOVERY_ROW_FAULTS: readonly RowFault[] = [...KEY_MISSING, ...KEY_MOVED, ...NOT_PUBLISHED];
