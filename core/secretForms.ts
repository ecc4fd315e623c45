/**
 * The forms a secret takes when a target echoes it back (issue 33, item 5): a secret is masked
 * after decoding, not only as written. A target may return it
 *
 * - with JSON string escapes (`\u0043`, `\/`, `\"`), any character escaped or not, upper- or
 *   lower-case hex: a JSON body kept as its exact text would otherwise show it to anyone who reads
 *   the body as JSON (report.html does);
 * - percent-encoded, any character or none (`%43`, `%2B`, a form's `+` for a space);
 * - in base64 or base64url, alone or inside a longer encoded value (a Basic credential
 *   `id:secret`): every one of the three alignments of the secret's bytes in a base64 stream has a
 *   fixed run of characters, which is masked wherever it appears.
 *
 * The forms are compiled once per secret and kept (a run derives a redactor per token obtained).
 */

/** Base64 runs shorter than this are not masked: they could be words of any text. */
const MIN_BASE64_RUN = 8;
/** Compiled forms kept, at most (a long service process sees many runs' secrets). */
const CACHE_LIMIT = 2048;

export interface SecretForms {
  /** Matches the secret with any of its characters JSON-escaped or percent-encoded (null when it has no such form). */
  escaped: RegExp | null;
  /** Fixed runs of the secret's base64 and base64url forms, longest first. */
  base64: string[];
}

const cache = new Map<string, SecretForms>();

const hexDigit = (d: string): string => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d);
const hex = (n: number, width: number): string => [...n.toString(16).padStart(width, '0')].map(hexDigit).join('');
const literal = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The alternatives of one character: itself, its JSON escapes, its percent-encoding. */
function characterForms(c: string): string {
  const forms = [literal(c)];
  const units = [...Array(c.length).keys()].map((i) => c.charCodeAt(i));
  forms.push(units.map((u) => `\\\\u${hex(u, 4)}`).join(''));
  const short: Record<string, string> = { '/': '\\\\/', '"': '\\\\"', '\\': '\\\\\\\\' };
  if (short[c]) forms.push(short[c]);
  forms.push([...Buffer.from(c, 'utf8')].map((b) => `%${hex(b, 2)}`).join(''));
  if (c === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

/** The runs of base64 (standard and url-safe) that every encoding of the secret contains, whatever its offset. */
function base64Runs(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const runs = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const encoded = padded.toString('base64').replace(/=+$/, '');
    // Characters touching the padding before, or the unknown bytes after, vary with the stream.
    const start = offset === 0 ? 0 : Math.ceil((offset * 8) / 6);
    const end = Math.floor((padded.length * 8) / 6);
    const run = encoded.slice(start, end);
    if (run.length >= MIN_BASE64_RUN) {
      runs.add(run);
      runs.add(run.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...runs].sort((a, b) => b.length - a.length);
}

export function secretForms(secret: string): SecretForms {
  const known = cache.get(secret);
  if (known) return known;
  const escaped = new RegExp([...secret].map(characterForms).join(''), 'g');
  const forms: SecretForms = { escaped, base64: base64Runs(secret) };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(secret, forms);
  return forms;
}

/** Text with every encoded form of each secret replaced by `mask` (the plain forms are the caller's). */
export function maskSecretForms(text: string, secrets: readonly string[], mask: string): string {
  let out = text;
  const mayBeEscaped = /[\\%+]/.test(out);
  for (const s of secrets) {
    const forms = secretForms(s);
    if (mayBeEscaped && forms.escaped) out = out.replace(forms.escaped, mask);
    for (const run of forms.base64) if (out.includes(run)) out = out.split(run).join(mask);
  }
  return out;
}
