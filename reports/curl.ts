/**
 * A copy-pasteable POSIX-shell curl command that replays one recorded exchange.
 *
 * Exchanges in results are already masked (core/redact.ts), but the command must never print a
 * credential even if one slipped through: the Authorization header and every header, query or
 * body parameter that carries a secret are replaced by environment variables
 * (`$CONFORMANCE_TOKEN`, `$CONFORMANCE_BASIC`, `$CONFORMANCE_<NAME>`), which the shell expands.
 */
import type { ExchangeRecord } from '../core/results.ts';

/** A piece of a shell word: literal text (single-quoted) or an environment variable. */
type Segment = { text: string } | { env: string };

/** Headers curl computes itself; replaying a stale value would break the request. */
const DROPPED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'host']);

/** Header names whose value is a credential (besides Authorization). */
const SECRET_HEADER =
  /^(proxy-authorization|cookie|secret|client-?secret|password|x-api-key|api-key|apikey|x-auth-token|x-access-token)$/i;

/** Query, form and JSON parameter names whose value is a credential. */
const SECRET_PARAM =
  /^(access_token|refresh_token|id_token|token|client_secret|secret|password|passwd|api_?key|assertion)$/i;

export const TOKEN_VARIABLE = 'CONFORMANCE_TOKEN';
export const BASIC_VARIABLE = 'CONFORMANCE_BASIC';

/** Quotes a string for a POSIX shell: single quotes, each `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The environment variable that stands for a secret named `name`. */
export function secretVariable(name: string): string {
  const upper = name
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return `CONFORMANCE_${upper || 'SECRET'}`;
}

/** Characters that keep their literal meaning inside double quotes (no `$`, backquote, `\`, `"`, `!`). */
const DOUBLE_QUOTE_SAFE = /^[^$`\\"!]*$/;

/** Renders segments as one shell word. */
function shellWord(segments: readonly Segment[]): string {
  const merged: Segment[] = [];
  for (const s of segments) {
    const last = merged[merged.length - 1];
    if ('text' in s && last !== undefined && 'text' in last) merged[merged.length - 1] = { text: last.text + s.text };
    else if (!('text' in s) || s.text !== '') merged.push(s);
  }
  if (merged.length === 0) return "''";
  if (merged.every((s) => 'text' in s)) return shellQuote(merged.map((s) => ('text' in s ? s.text : '')).join(''));
  if (merged.every((s) => 'env' in s || DOUBLE_QUOTE_SAFE.test(s.text))) {
    // One double-quoted word, e.g. "Authorization: Bearer $CONFORMANCE_TOKEN".
    let out = '';
    merged.forEach((s, i) => {
      if ('text' in s) out += s.text;
      else {
        const next = merged[i + 1];
        const glued = next !== undefined && 'text' in next && /^[A-Za-z0-9_]/.test(next.text);
        out += glued ? `\${${s.env}}` : `$${s.env}`;
      }
    });
    return `"${out}"`;
  }
  return merged.map((s) => ('text' in s ? shellQuote(s.text) : `"$${s.env}"`)).join('');
}

function authorizationSegments(name: string, value: string): Segment[] {
  const trimmed = value.trim();
  if (trimmed === '') return [{ text: `${name}: ` }];
  const space = trimmed.search(/\s/);
  const scheme = space > 0 ? trimmed.slice(0, space) : '';
  if (/^basic$/i.test(scheme)) return [{ text: `${name}: ${scheme} ` }, { env: BASIC_VARIABLE }];
  // Keep the scheme as sent (it may be the point of the check), unless it looks like anything but a scheme.
  const shownScheme = /^[A-Za-z][A-Za-z0-9._~+-]{0,30}$/.test(scheme) ? scheme : 'Bearer';
  return [{ text: `${name}: ${shownScheme} ` }, { env: TOKEN_VARIABLE }];
}

function headerSegments(name: string, value: string): Segment[] {
  if (/^authorization$/i.test(name)) return authorizationSegments(name, value);
  if (SECRET_HEADER.test(name) && value !== '') return [{ text: `${name}: ` }, { env: secretVariable(name) }];
  return [{ text: `${name}: ${value}` }];
}

/** Splits `a=1&token=x` into segments with secret values replaced. */
function formSegments(encoded: string): Segment[] {
  const out: Segment[] = [];
  encoded.split('&').forEach((pair, i) => {
    if (i > 0) out.push({ text: '&' });
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      name = rawName;
    }
    if (eq >= 0 && SECRET_PARAM.test(name) && pair.length > eq + 1) {
      out.push({ text: pair.slice(0, eq + 1) }, { env: secretVariable(name) });
    } else out.push({ text: pair });
  });
  return out;
}

function urlSegments(url: string): Segment[] {
  const q = url.indexOf('?');
  if (q < 0) return [{ text: url }];
  const hash = url.indexOf('#', q);
  const query = hash < 0 ? url.slice(q + 1) : url.slice(q + 1, hash);
  const tail = hash < 0 ? '' : url.slice(hash);
  return [{ text: url.slice(0, q + 1) }, ...formSegments(query), { text: tail }];
}

/** Marks a masked value while the JSON body is re-serialised (private-use characters, never escaped). */
const SENTINEL = /\uE000conformance-secret-(\d+)\uE000/g;

/** Replaces secret string values of a JSON body by variables; the body is re-serialised only then. */
function jsonSegments(body: string): Segment[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  const names: string[] = [];
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      const copy: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) {
        if (SECRET_PARAM.test(k) && typeof inner === 'string' && inner !== '') {
          copy[k] = `\uE000conformance-secret-${names.length}\uE000`;
          names.push(k);
        } else copy[k] = walk(inner);
      }
      return copy;
    }
    return v;
  };
  const masked = walk(value);
  if (names.length === 0) return [{ text: body }];
  const text = JSON.stringify(masked);
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(SENTINEL)) {
    out.push({ text: text.slice(last, m.index) }, { env: secretVariable(names[Number(m[1])] ?? 'secret') });
    last = (m.index ?? 0) + m[0].length;
  }
  out.push({ text: text.slice(last) });
  return out;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function bodySegments(body: string, contentType: string): Segment[] {
  if (/x-www-form-urlencoded/i.test(contentType)) return formSegments(body);
  if (/json/i.test(contentType) || /^\s*[{[]/.test(body)) return jsonSegments(body) ?? [{ text: body }];
  return [{ text: body }];
}

/**
 * The curl command that replays `x`, one option per line (joined with backslash-newline).
 * `--globoff` keeps curl from reading `[]` and `{}` in the URL as ranges.
 */
export function curlCommand(x: ExchangeRecord): string {
  const method = x.method.toUpperCase();
  // `-X HEAD` would make curl wait for a body that never comes; `--head` is the HEAD request.
  const methodOption = method === 'HEAD' ? '--head' : `-X ${/^[A-Z]+$/.test(method) ? method : shellQuote(x.method)}`;
  const parts: string[] = ['curl --globoff', methodOption];
  parts.push(shellWord(urlSegments(x.url)));
  for (const [name, value] of Object.entries(x.request.headers)) {
    if (DROPPED_HEADERS.has(name.toLowerCase())) continue;
    parts.push(`-H ${shellWord(headerSegments(name, value))}`);
  }
  if (x.request.body !== undefined && x.request.body !== '') {
    const contentType = headerValue(x.request.headers, 'content-type') ?? '';
    parts.push(`--data-raw ${shellWord(bodySegments(x.request.body, contentType))}`);
  }
  return parts.join(' \\\n  ');
}

/** True when a header's value is a credential (Authorization and the names in SECRET_HEADER). */
export function isSecretHeader(name: string): boolean {
  return /^authorization$/i.test(name) || SECRET_HEADER.test(name);
}

/** A header value safe to display: the scheme of Authorization is kept, the credential never is. */
export function maskedHeaderValue(name: string, value: string): string {
  if (!isSecretHeader(name) || value.trim() === '') return value;
  if (/^(proxy-)?authorization$/i.test(name)) {
    const scheme = /^\s*([A-Za-z][A-Za-z0-9._~+-]{0,30})\s+\S/.exec(value);
    return scheme ? `${scheme[1]} ***` : '***';
  }
  return '***';
}

/** The URL with the values of secret query parameters shown as `***`, for display. */
export function maskedUrl(url: string): string {
  return urlSegments(url)
    .map((s) => ('text' in s ? s.text : '***'))
    .join('');
}
