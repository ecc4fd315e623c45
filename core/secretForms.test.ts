import { describe, expect, test } from 'vitest';
import { Redactor } from './redact.ts';
import { maskSecretForms, secretForms } from './secretForms.ts';

const SECRET = 'Cs3cr3t/+value';
const M = '****';

/** A JSON string escape of every character. */
const allEscaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('the encoded forms of a secret', () => {
  test.each([
    ['JSON escapes of some characters, upper-case hex', '{"echo":"\\u0043s3cr3t\\/\\u002Bvalue"}'],
    ['JSON escapes of every character, lower-case hex', `{"echo":"${allEscaped(SECRET)}"}`],
    ['only the solidus escaped', '{"echo":"Cs3cr3t\\/+value"}'],
    ['percent-encoded wholly', `q=${[...Buffer.from(SECRET)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')}`],
    ['percent-encoded in part, lower-case', 'q=Cs3cr3t%2f%2bvalue'],
    ['in base64', `{"echo":"${Buffer.from(SECRET).toString('base64')}"}`],
    ['in base64url', `{"echo":"${Buffer.from(SECRET).toString('base64url')}"}`],
    ['inside a Basic credential (id:secret)', `"Basic ${Buffer.from(`client-1:${SECRET}`).toString('base64')}"`],
    ['inside base64 at the second alignment', Buffer.from(`ab${SECRET}xyz`).toString('base64')],
  ])('%s: no form of it is left that decodes to the secret', (_name, text) => {
    const masked = new Redactor([SECRET]).text(text);
    expect(masked).toContain(M);
    // Decode everything a reader might: JSON, percent-encoding, base64 of any run.
    const decodings = [masked, decodeURIComponent(masked.replace(/%(?![0-9a-f]{2})/gi, '%25'))];
    try {
      decodings.push(JSON.stringify(JSON.parse(masked)));
    } catch {}
    for (const run of masked.match(/[A-Za-z0-9+/_-]{8,}/g) ?? [])
      for (let cut = 0; cut < 4; cut++) decodings.push(Buffer.from(run.slice(cut), 'base64').toString('latin1'));
    for (const d of decodings) expect(d).not.toContain(SECRET);
  });

  test('text without the secret is left as it is, escapes and base64 alike', () => {
    const text = '{"note":"\\u0043ontact \\/ 50%2B","blob":"SGVsbG8gd29ybGQsIG5vIHNlY3JldCBoZXJl"}';
    expect(maskSecretForms(text, [SECRET], M)).toBe(text);
  });

  test('a short secret has no base64 runs (they could be any word), but its escapes are still masked', () => {
    expect(secretForms('abcd').base64).toEqual([]);
    expect(new Redactor(['abcd']).text('{"x":"\\u0061bcd"}')).toBe(`{"x":"${M}"}`);
  });

  test('characters outside ASCII: JSON escapes of UTF-16 units and percent-encoded UTF-8 bytes', () => {
    const secret = 'päss-wörd-€1';
    const r = new Redactor([secret]);
    expect(r.text(`{"x":"${allEscaped(secret)}"}`)).toBe(`{"x":"${M}"}`);
    expect(r.text(`q=${encodeURIComponent(secret)}`)).toBe(`q=${M}`);
  });
});
