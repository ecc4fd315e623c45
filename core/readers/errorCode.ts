/**
 * The one reader of an answer's error code (DESIGN.md "What the documents leave open"): whoever
 * needs a code (a check, a derived request's judgement, a state machine, the client judge, a pact
 * check) asks here, so that no part of the suite reads the documents more narrowly than another.
 *
 * Every form the documents and decisions allow is read:
 * - `issue[].details.coding[].code` of an OperationOutcome, any coding of any issue (D1 2.3, D2 2.6,
 *   D3 2.7; DEC-D1-14);
 * - a top-level `code` or `error` member (a string, or an object with a string `code`), the error
 *   bodies whose form the documents do not show (DEC-D1-14, DEC-D2-07, DEC-D3-10);
 * - `InvalidId`, which D1 7 describes as "an object of type `id` plus the id" without showing its
 *   JSON: a member named `InvalidId` (of any value), or the word `InvalidId` anywhere in the body,
 *   JSON or text (DEC-D1-11).
 * Never throws; the codes are unique, in the order found.
 */

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The documented code whose form D1 7 describes but does not show. */
export const INVALID_ID = 'InvalidId';

/**
 * The error codes of an answer: its parsed JSON body (undefined when not JSON) and, where there is
 * one, the body as text (a text answer, or JSON whose `InvalidId` sits in a string).
 */
export function errorCodesOf(body: unknown, text?: string): string[] {
  const codes: string[] = [];
  const add = (code: unknown): void => {
    if (typeof code === 'string' && code !== '' && !codes.includes(code)) codes.push(code);
  };
  for (const code of outcomeCodesOf(body)) add(code);
  if (isRec(body)) {
    for (const member of [body.code, body.error]) add(isRec(member) ? member.code : member);
    if (INVALID_ID in body) add(INVALID_ID);
  } else if (typeof body === 'string' && /^[A-Za-z][A-Za-z0-9_]*$/.test(body)) add(body);
  const whole = text ?? (body === undefined ? '' : safeStringify(body));
  if (/\bInvalidId\b/.test(whole)) add(INVALID_ID);
  return codes;
}

/** The issues of an OperationOutcome that are objects, in order (none when `issue` is not a list). */
export function issuesOf(body: unknown): Rec[] {
  return isRec(body) && Array.isArray(body.issue) ? body.issue.filter(isRec) : [];
}

/** The codes of one issue: `details.coding[].code`, non-empty strings, in order. */
export function issueCodes(issue: unknown): string[] {
  if (!isRec(issue) || !isRec(issue.details) || !Array.isArray(issue.details.coding)) return [];
  return issue.details.coding
    .filter(isRec)
    .map((c) => c.code)
    .filter((c): c is string => typeof c === 'string' && c.trim() !== '');
}

/** The codes of an OperationOutcome: `issue[].details.coding[].code`, any coding of any issue, in order. */
export function outcomeCodesOf(body: unknown): string[] {
  return [...new Set(issuesOf(body).flatMap(issueCodes))];
}

/** The first issue whose codings carry `code`, or undefined. */
export function issueCarrying(body: unknown, code: string): Rec | undefined {
  return issuesOf(body).find((i) => issueCodes(i).includes(code));
}

/** The first error code of an answer, or undefined. */
export function errorCodeOf(body: unknown, text?: string): string | undefined {
  return errorCodesOf(body, text)[0];
}

/** Whether the answer carries one of the codes. */
export function carriesErrorCode(body: unknown, codes: readonly string[], text?: string): boolean {
  return errorCodesOf(body, text).some((c) => codes.includes(c));
}

function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}
