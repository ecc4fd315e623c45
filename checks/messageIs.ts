import { fail, pass, show, type Check } from '../core/check.ts';
import { describe, readObject } from './readJson.ts';

/**
 * The JSON object answered carries `message` equal to the given text (document 3, 4.1: an invalid
 * site id is answered 200 `{message: 'Siteid is invalid : <site_id>'}`; DEC-D3-44).
 */
export function messageIs(text: string): Check {
  return {
    id: 'message-is',
    summary: `The answer's message is "${text}"`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      if (body.value.message === text) return pass(text);
      return fail(
        `Expected {message: ${show(text, 80)}}, received message ${body.value.message === undefined ? `absent in ${describe(body.value)}` : show(body.value.message, 80)}`,
      );
    },
  };
}
