/** Escaping and capping of text from the results: response bodies are hostile input. */

/** C0/C1 controls (but tab, LF, CR) and lone surrogates render as U+FFFD instead of vanishing. */
export const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the pattern exists to find control characters and lone surrogates
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value
    .replace(UNPRINTABLE, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export const esc = escapeHtml;

/**
 * Requirement text as the documents write it: escaped, its `code spans` shown as code (the table
 * keeps the documents' Markdown backticks).
 */
export function requirementText(value: string): string {
  return value
    .split(/(`[^`\n]+`)/)
    .map((part) => (/^`[^`\n]+`$/.test(part) ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : escapeHtml(part)))
    .join('');
}

/** Attribute list from pairs; values escaped, undefined values left out. */
export function attrs(pairs: Record<string, string | number | undefined>): string {
  return Object.entries(pairs)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join('');
}

/** Responses larger than this are cut in the page (results.json keeps up to http.maxEvidenceBytes). */
export const BODY_DISPLAY_CAP = 20 * 1024;

export const encoder = new TextEncoder();
export const decoder = new TextDecoder('utf-8');

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function capUtf8(text: string, maxBytes: number): { text: string; bytes: number; capped: boolean } {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, bytes: bytes.length, capped: false };
  const cut = decoder.decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
  return { text: cut, bytes: bytes.length, capped: true };
}

/** A body pretty-printed when it is JSON, else as received. */
export function prettyBody(body: string, contentType = ''): string {
  if (/json/i.test(contentType) || /^\s*[[{]/.test(body)) {
    try {
      return JSON.stringify(JSON.parse(body) as unknown, null, 2);
    } catch {
      return body;
    }
  }
  return body;
}
