import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { isRecord, jsonBody } from '../core/exchange.ts';
import { briefValue } from './valueKind.ts';

export interface AccountsErrorExpectation {
  /** The HTTP status of the section 7 row. */
  status: number;
  /** The message of the row; each `<placeholder>` stands for any non-empty text. */
  message: string;
}

/** A placeholder of a section 7 message, such as `<site_id>` or `<client_account>`. */
const PLACEHOLDER = /<[A-Za-z][A-Za-z0-9_.-]*>/g;

/**
 * Whether `text` equals `template` where each `<placeholder>` matches any non-empty text and
 * everything else must match exactly (DEC-D3-04). Linear, no regular expression built from
 * data: the literal parts are found leftmost in turn, which is optimal for such patterns.
 */
export function matchesTemplate(template: string, text: string): boolean {
  const literals = template.split(PLACEHOLDER);
  if (literals.length === 1) return text === template;
  const first = literals[0];
  const last = literals[literals.length - 1];
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  const end = text.length - last.length;
  let pos = first.length;
  for (const literal of literals.slice(1, -1)) {
    // The placeholder before this literal takes at least one character.
    const at = text.indexOf(literal, pos + 1);
    if (at < 0) return false;
    pos = at + literal.length;
  }
  // The last placeholder takes at least one character before the final literal.
  return pos + 1 <= end;
}

/**
 * The response is the documented accounts error (document 3, section 7; DEC-D3-04): exactly the
 * row's HTTP status, and a body `message` equal to the row's message, where each `<placeholder>`
 * matches any non-empty text. Apart from surrounding white space the comparison is exact
 * (letter case and punctuation included).
 */
export function accountsErrorAnswer(expected: AccountsErrorExpectation): Check {
  const template = expected.message.trim();
  const wanted = `HTTP ${expected.status} with message ${show(template)}`;
  return {
    id: 'accounts-error-answer',
    summary: `The error answer is ${wanted}`,
    run: (x) => {
      const status = x.response.status;
      const statusOk = status === expected.status;
      if (statusOk && x.response.truncated) return skip('Body truncated at the size cap, cannot judge the message');
      const body = jsonBody(x);
      const message = isRecord(body) ? body.message : undefined;
      const text = typeof message === 'string' ? message.trim() : undefined;
      const evidence = { status, message: briefValue(message) };
      if (statusOk && text !== undefined && matchesTemplate(template, text))
        return pass(`HTTP ${status} with message ${show(text)}`, evidence);
      let received: string;
      if (text !== undefined) received = `message ${show(text)}`;
      else if (message !== undefined) received = `message ${show(message, 60)} (not text)`;
      else if (x.response.bodyText.trim() === '') received = 'an empty body';
      else if (body === undefined) received = 'a body that is not JSON';
      else received = 'no message';
      return fail(`Expected ${wanted}, received HTTP ${status} with ${received}`, evidence);
    },
  };
}
