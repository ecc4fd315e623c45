/**
 * Faults of how an operation is reached: where its request parameters travel (D1 4: "sent as
 * `application/x-www-form-urlencoded` body fields for POST and as query parameters for GET"; D2 4:
 * every operation a GET with query parameters; D3 4.2: revoke, a POST of the form field `token`),
 * read from the other place; and the method it is addressed with ("addressed by the key ...,
 * POST"), refused with 405 as if the server served the operation under another method (only the
 * refusal is seen: the sandbox's routes serve the documented method alone). Scenarios:
 * transport.test.ts.
 */
import { ApiError, errorReply } from '../../router/errors.ts';
import type { ModifierScope, SandboxReply, SandboxRequest } from '../../router/types.ts';
import type { RowFault } from './types.ts';

/** The request as a server that reads the form body's fields from the query would see it. */
const formFromQuery = (request: SandboxRequest): SandboxRequest => ({
  ...request,
  form: new URLSearchParams(request.query),
});

/** The documented method refused with 405 and an `Allow` naming another (where `applies`). */
const methodRefused =
  (allow: string, applies: (scope: ModifierScope) => boolean = () => true) =>
  (reply: SandboxReply, scope: ModifierScope): SandboxReply =>
    applies(scope)
      ? errorReply(
          new ApiError(
            405,
            'MSG_METHOD_NOT_ALLOWED',
            `${scope.request.method} is not allowed on ${scope.request.path}`,
            {
              allow,
            },
          ),
          scope.operations,
        )
      : reply;

export const TRANSPORT_ROW_FAULTS: readonly RowFault[] = [
  {
    name: 'find-member-v1-post-refused',
    kind: 'method',
    rule: 'D1 4.1: Find Member version 1 is addressed by the key `find_member_endpoint` with method POST',
    description: 'Find Member version 1 answers POST with 405 `Allow: GET`, as a server serving it under GET would.',
    operations: ['find-member-v1'],
    expectedCheck: 'documented-method-served',
    rows: ['D1-4.1-01'],
    reply: methodRefused('GET', (scope) => (scope.request.headers['svc-api-version'] ?? '').trim() === '1'),
  },
  {
    name: 'insurer-control-parameters-get-refused',
    kind: 'method',
    rule: 'D2 4.5: insurer control parameters are addressed by the key `get_organization_control_params_endpoint`, GET',
    description:
      'Insurer control parameters answer GET with 405 `Allow: POST`, as a server serving them under POST would.',
    operations: ['get-insurer-control-parameters'],
    expectedCheck: 'documented-method-served',
    rows: ['D2-4.5-01'],
    reply: methodRefused('POST'),
  },
  {
    name: 'get-patient-get-refused',
    kind: 'method',
    rule: 'D3 4.4: get patient is addressed by the key `get_patienet_endpoint`, GET `{base_url}/patient/{patient_id}`',
    description: 'Get patient answers GET with 405 `Allow: DELETE`, as a server serving only the delete there would.',
    operations: ['get-patient'],
    expectedCheck: 'documented-method-served',
    rows: ['D3-4.4-07'],
    reply: methodRefused('DELETE'),
  },
  {
    name: 'find-member-v2-reads-query-not-form',
    kind: 'transport',
    rule: 'D1 4: request parameters are sent as form body fields for POST',
    description:
      'Find Member version 2 reads its parameters from the query string, not from the form body: a valid form-encoded request is refused as missing them.',
    operations: ['find-member-v2'],
    expectedCheck: 'sent-parameters-read',
    rows: ['D1-4-02'],
    request: (request) =>
      (request.headers['svc-api-version'] ?? '').trim() === '2' ? formFromQuery(request) : request,
  },
  {
    name: 'lookup-practitioners-reads-body-not-query',
    kind: 'transport',
    rule: 'D2 4: every operation is a GET whose inputs travel as query parameters',
    description:
      'Practitioner lookup reads `text`, `page` and `count` from a form body, not from the query: a valid lookup is refused as missing `text`.',
    operations: ['lookup-practitioners'],
    expectedCheck: 'sent-parameters-read',
    rows: ['D2-4-03'],
    request: (request) => ({ ...request, query: new URLSearchParams(request.form ?? '') }),
  },
  {
    name: 'revoke-token-reads-query-not-form',
    kind: 'transport',
    rule: 'D3 4.2: revoke is a POST of `application/x-www-form-urlencoded` with the body field `token`, answered HTTP 200',
    description:
      'Revoke reads `token` from the query string, not from the form body: a revoke of documented form is refused (HTTP 400).',
    operations: ['revoke-token'],
    expectedCheck: 'success-status',
    rows: ['D3-4.2-07'],
    request: formFromQuery,
  },
];
