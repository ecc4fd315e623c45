/**
 * The one edge that turns anything a handler throws into the documented error body: an
 * OperationOutcome (2.3; Document 2 errors alike, DEC-D2-24; Document 3 patients and contracts)
 * for ApiError, the InvalidId object for InvalidIdError (DEC-D1-11), the Document 3 message
 * bodies for MessageError (accounts `{message, code}`, token details `{status: 'fail', message,
 * code}`, the diary's empty 401), and a 500 OperationOutcome for anything else (a sandbox bug).
 */
import { REF_URL } from '../resources/urls.ts';
import type { SandboxReply } from './types.ts';

export const ERROR_CODE_SYSTEM = `${REF_URL}/error-code`;

const DISPLAY: Readonly<Record<string, string>> = {
  NO_MATCH_FOUND: 'No match for the search parameters',
  MULTIPLE_MATCH_FOUND: 'More than one match',
  MSG_MISSING_MANDATORY_PARAM: 'Mandatory parameter missing',
  MSG_PARAM_INVALID: 'Parameter content invalid',
  MSG_CANT_PARSE_CONTENT: 'Unprocessable entity',
  MSG_DATABASE_ERROR: 'Database processing failure',
  MSG_PARAM_EMPTY: 'Parameter null or empty',
  MSG_INVALID_FORMAT: 'Invalid format',
  MSG_UNAUTHORIZED: 'Missing or unknown access token',
  MSG_FORBIDDEN: 'The token may not act for this site',
  MSG_ENTITY_NOT_FOUND: 'Entity not found',
  MSG_NOT_FOUND: 'No such resource',
  MSG_METHOD_NOT_ALLOWED: 'Method not allowed',
  MSG_INTERNAL_ERROR: 'Internal error',
  MSG_OP_NOT_ALLOWED: 'Update of an inactive resource not allowed',
  MSG_ENTITY_ALREADY_EXISTS: 'Entity already exists',
  MSG_REFERENCE_ID_NOT_FOUND: 'Reference id not found',
  INVALID_RESOURCE: 'Unprocessable entity',
  MSG_FAILED_TO_READ_ENTITY: 'Failed to read entity from the database',
  MSG_ENTITY_NOT_FOUND_IN_DATABASE: 'No matching resource',
  MSG_DATE_FORMAT: 'Date format not valid',
  REFERENCE_NOT_FOUND: 'Reference not found',
  MISSING_MANDATORY_ELEMENT: 'Missing mandatory element',
  INVALID_EXTENSION: 'Invalid extension',
  INVALID_REFERENCE: 'Invalid reference',
  MSG_DELETED_ID: 'Deleted',
};

/** A documented error: HTTP status, error code of section 7 (or DEC-D1-13/21, DEC-D2-07/29), diagnostics. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly diagnostics: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${code}: ${diagnostics}`);
    this.name = 'ApiError';
  }
}

/** The clearing batches' `InvalidId` (4.7, 4.8). */
export class InvalidIdError extends Error {
  constructor(readonly id: string) {
    super(`InvalidId ${id}`);
    this.name = 'InvalidIdError';
  }
}

/**
 * A Document 3 error whose body is not an OperationOutcome: `accounts` answers `{message, code}`
 * (2.2, 7; DEC-D3-04), `token-details` answers `{status: 'fail', message, code}` (7), `empty`
 * answers no body at all (the diary's unauthorised lists, 4.3).
 */
export class MessageError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly shape: 'accounts' | 'token-details' | 'empty',
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${text}`);
    this.name = 'MessageError';
  }
}

export interface OperationOutcome {
  resourceType: 'OperationOutcome';
  issue: {
    severity: 'error';
    code: 'exception';
    details: { coding: { system: string; code: string; display: string }[] };
    diagnostics: string;
    location: string[];
    expression: string[];
  }[];
}

export function operationOutcome(code: string, diagnostics: string, location: string[] = []): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'exception',
        details: { coding: [{ system: ERROR_CODE_SYSTEM, code, display: DISPLAY[code] ?? code }] },
        diagnostics,
        location,
        expression: [],
      },
    ],
  };
}

const isFindMember = (ops: readonly string[]) => ops.some((o) => o.startsWith('find-member'));

function messageReply(e: MessageError): SandboxReply {
  if (e.shape === 'accounts')
    return { status: e.status, body: { message: e.text, code: e.status }, headers: e.headers };
  if (e.shape === 'token-details')
    return { status: e.status, body: { status: 'fail', message: e.text, code: e.status }, headers: e.headers };
  return { status: e.status, headers: e.headers };
}

/** The reply for anything a handler threw; `operations` are the ids of the route that failed (Find Member errors carry location `Coverage`). */
export function errorReply(error: unknown, operations: readonly string[]): SandboxReply {
  if (error instanceof InvalidIdError) {
    return { status: 404, body: { code: 'InvalidId', type: 'id', id: error.id } };
  }
  if (error instanceof MessageError) return messageReply(error);
  const findMember = isFindMember(operations);
  const e =
    error instanceof ApiError
      ? error
      : new ApiError(
          500,
          findMember ? 'MSG_DATABASE_ERROR' : 'MSG_INTERNAL_ERROR',
          `Unexpected server error: ${error instanceof Error ? error.message : String(error)}`,
        );
  return {
    status: e.status,
    body: operationOutcome(e.code, e.diagnostics, findMember ? ['Coverage'] : []),
    headers: e.headers,
  };
}
