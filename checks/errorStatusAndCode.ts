import { fail, pass, type Check } from '../core/check.ts';
import { isRecord, jsonBody } from '../core/exchange.ts';

export interface StatusAndCode {
  status: number;
  code: string;
}

/**
 * The error codes a body carries: `issue[].details.coding[].code` of an OperationOutcome (2.3),
 * or a top-level `code` or `error` string member (DEC-D1-14). Never throws; unique, in order.
 */
export function errorCodesOf(body: unknown): string[] {
  const codes: string[] = [];
  const add = (code: unknown): void => {
    if (typeof code === 'string' && code !== '' && !codes.includes(code)) codes.push(code);
  };
  if (!isRecord(body)) return codes;
  if (Array.isArray(body.issue)) {
    for (const issue of body.issue) {
      if (!isRecord(issue) || !isRecord(issue.details) || !Array.isArray(issue.details.coding)) continue;
      for (const coding of issue.details.coding) if (isRecord(coding)) add(coding.code);
    }
  }
  add(body.code);
  add(body.error);
  return codes;
}

const render = (pair: StatusAndCode): string => `HTTP ${pair.status} with code ${pair.code}`;

/**
 * The response carries one of the documented error answers: the HTTP status and the error code
 * of one expected pair (document 1, section 7; code location per DEC-D1-14).
 */
export function errorStatusAndCode(expected: StatusAndCode | readonly StatusAndCode[]): Check {
  const pairs: readonly StatusAndCode[] = Array.isArray(expected) ? expected : [expected as StatusAndCode];
  const wanted = pairs.map(render).join(' or ');
  return {
    id: 'error-status-and-code',
    summary: `The error answer is ${wanted}`,
    run: (x) => {
      const status = x.response.status;
      const codes = errorCodesOf(jsonBody(x));
      const evidence = { status, codes };
      const hit = pairs.find((p) => p.status === status && codes.includes(p.code));
      if (hit) return pass(render(hit), evidence);
      const received = `HTTP ${status} with code ${codes.length === 0 ? '<no code>' : codes.join(', ')}`;
      return fail(`Expected ${wanted}, received ${received}`, evidence);
    },
  };
}
