import { fail, pass, type Check } from '../core/check.ts';
import { bodyStart } from './readJson.ts';

/**
 * The response has no payload (document 1, 4.8 Ack Remittance Receipt: "No payload in
 * response"). Whitespace only counts as empty.
 */
export const emptyBody: Check = {
  id: 'empty-body',
  summary: 'The response has no body',
  run: (x) => {
    const text = x.response.bodyText;
    if (text.trim() === '') return pass('no body');
    const size = Number.isFinite(x.response.size) && x.response.size > 0 ? x.response.size : Buffer.byteLength(text);
    return fail(`Expected an empty body, received ${size} bytes: ${bodyStart(x)}`, { size });
  },
};
