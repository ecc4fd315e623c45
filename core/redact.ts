/**
 * Masking before an exchange leaves the process (events, results, reports, logs).
 *
 * Secrets, always: credential headers keep their scheme; known secret values are replaced
 * wherever they appear; token-bearing fields of form and JSON bodies are masked by name.
 *
 * Personal data of patients, members and account users, unless the run keeps it (`--evidence
 * full`): personal fields of JSON bodies, form bodies and query strings are masked by structure and
 * name (core/personalData.ts); the values masked are learned and masked again wherever free text
 * repeats them as a whole token (messages, evidence, counterexamples), as are email addresses.
 * Personal data is masked by value, never by a piece of a word: `invalid` stays readable after a
 * search for the name `val`, and values too short to tell from words are masked only in their
 * field. Secrets are masked wherever they appear, inside a word too, and in every form a target
 * may echo them in (JSON escapes, percent-encoding, base64: core/secretForms.ts): no reading of a
 * report may recover one. Masking happens after the checks judged the unmasked exchange, so it never changes
 * an outcome.
 *
 * Bodies are then cut to the evidence cap per exchange (core/evidenceCap.ts), after masking, so
 * that no secret or personal value is ever cut in half and left readable.
 */
import type { Exchange } from './exchange.ts';
import type { Fixtures } from './configTypes.ts';
import { cappedBody, EVIDENCE_DEFAULTS, utf8Prefix } from './evidenceCap.ts';
import {
  isPublicOperation,
  maskEmails,
  maskParameters,
  maskPersonalJson,
  maskPersonalMembers,
  maskUrlParameters,
  MASK,
  PersonalValues,
  personalValuesOf,
  type Learn,
} from './personalData.ts';
import type { EvidenceMode, ExchangeRecord } from './results.ts';
import { maskSecretForms } from './secretForms.ts';

export { MASK } from './personalData.ts';

/** `masked` (the default): secrets and personal data are masked; `full`: only secrets are. */
export type { EvidenceMode } from './results.ts';

export interface RedactorOptions {
  /** Mask personal data of patients and members (names, birth dates, addresses, ...). */
  personalData?: boolean;
  /**
   * Personal values known before any exchange (the configured fixtures, see
   * `personalValuesOf` of core/personalData.ts): masked in every text from the start of the run.
   */
  personalValues?: readonly string[];
  /** Bytes of a body an exchange record keeps (config `http.maxEvidenceBytes`); unlimited when absent. */
  maxEvidenceBytes?: number;
}

/**
 * Text masked as text (not walked as JSON) is cut to the evidence cap plus this margin before it is
 * masked, so that masking costs no more than the cap; the margin outlasts any secret or personal
 * value, so one that straddles the first cut lies wholly beyond the final one.
 */
const MASKING_MARGIN = 64 * 1024;

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'secret',
  'clientid',
  'x-api-key',
]);
const SECRET_FIELDS = ['access_token', 'refresh_token', 'id_token', 'client_secret', 'password', 'token', 'secret'];
const fieldPattern = SECRET_FIELDS.join('|');
const jsonField = new RegExp(`("(?:${fieldPattern})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
const formField = new RegExp(`(^|[&?])((?:${fieldPattern})=)[^&#]*`, 'gi');

type Body = { kind: 'json'; value: unknown; pretty: boolean } | { kind: 'form' } | { kind: 'text' };

function contentTypeOf(headers: Record<string, string>): string {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === 'content-type') return v.toLowerCase();
  return '';
}

/** How a body is read for masking: JSON (by media type or shape), a form, or plain text. */
function bodyOf(text: string, contentType: string): Body {
  const trimmed = text.trimStart();
  if (/json/.test(contentType) || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown, pretty: text.includes('\n') };
    } catch {
      return { kind: 'text' }; // a malformed body (often on purpose) is masked as text
    }
  }
  if (contentType.includes('application/x-www-form-urlencoded')) return { kind: 'form' };
  return { kind: 'text' };
}

const TOO_DEEP = Symbol('too deep');

/** The result, or TOO_DEEP when the value nests beyond the stack (only a hostile body does). */
function deepSafe<T>(f: () => T): T | typeof TOO_DEEP {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) return TOO_DEEP;
    throw e;
  }
}

export class Redactor {
  private readonly secrets: string[];
  private readonly learned: PersonalValues;
  readonly options: RedactorOptions;

  /**
   * @param learned the store of personal values seen; `with()` hands its own on, so that every
   *   redactor derived from one shares what any of them learned.
   */
  constructor(
    secrets: readonly string[] = [],
    options: RedactorOptions = {},
    learned: PersonalValues = new PersonalValues(),
  ) {
    this.options = options;
    // Longest first so a secret containing another is masked whole; ignore trivially short values.
    this.secrets = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
    this.learned = learned;
    if (options.personalData) for (const v of options.personalValues ?? []) learned.learn(v);
  }

  /**
   * The redactor of a run: its secrets masked always; personal data (learned from responses, and
   * named by the config's fixtures from the start) masked unless evidence is `full`. The one place
   * a run's redactor is built, in the runner and in every suite worker alike.
   */
  static forRun(run: {
    secrets: readonly string[];
    evidence: EvidenceMode;
    fixtures: Fixtures;
    http?: { maxEvidenceBytes?: number };
  }): Redactor {
    return new Redactor(run.secrets, {
      personalData: run.evidence !== 'full',
      personalValues: personalValuesOf(run.fixtures),
      maxEvidenceBytes: run.http?.maxEvidenceBytes ?? EVIDENCE_DEFAULTS.maxEvidenceBytes,
    });
  }

  /** A new redactor that also masks these values (e.g. a token obtained during the run). */
  with(more: readonly string[]): Redactor {
    return new Redactor([...this.secrets, ...more], this.options, this.learned);
  }

  /** Any text: secrets, token fields and, unless evidence is `full`, learned personal values and email addresses. */
  text(value: string): string {
    return this.tokenFields(this.personalText(this.secretValues(value)));
  }

  /** Any JSON value (check evidence, a counterexample) with every string in it masked. */
  value<T>(v: T): T {
    if (!this.options.personalData) return this.plainValue(v);
    // No learning here: evidence is the checks' own summary, and a register search's filters
    // (`family: "Fra"`) would otherwise mask unrelated words everywhere.
    return maskPersonalJson(v, { free: (s) => this.text(s), kept: (s) => this.secretsOnly(s), humanNames: false });
  }

  header(name: string, value: string): string {
    return this.headerMasked(name, value, true);
  }

  headers(headers: Record<string, string>): Record<string, string> {
    return this.headersMasked(headers, true);
  }

  /** The exchange as it may be written anywhere. */
  exchange(x: Exchange): ExchangeRecord {
    // Public register exchanges (Document 2) carry no patient or member data: secrets only.
    const personal = this.options.personalData === true && !isPublicOperation(x.operation);
    const learn: Learn | undefined = personal ? (v, kind) => this.learned.learn(v, kind) : undefined;
    let request = x.request.body !== undefined ? bodyOf(x.request.body, contentTypeOf(x.request.headers)) : undefined;
    // A body cut at the size cap cannot parse: it is masked as text without trying.
    let response = x.response
      ? x.response.truncated
        ? ({ kind: 'text' } as const)
        : bodyOf(x.response.bodyText, contentTypeOf(x.response.headers))
      : undefined;

    // First every part is masked by structure, learning its personal values; only then is free
    // text masked, so that a value seen anywhere in the exchange is masked everywhere in it.
    let url = x.request.url;
    let requestBody = x.request.body;
    const responseBody = x.response?.bodyText;
    let requestJson: unknown;
    let responseJson: unknown;
    if (personal) {
      url = maskUrlParameters(url, learn);
      if (requestBody !== undefined && request?.kind === 'form') requestBody = maskParameters(requestBody, learn);
      const structured = (b: Body | undefined): unknown =>
        b?.kind === 'json' ? deepSafe(() => maskPersonalJson(b.value, { learn, humanNames: true })) : undefined;
      requestJson = structured(request);
      responseJson = structured(response);
      // JSON nested too deeply to walk (a hostile target) is masked as text instead.
      if (request?.kind === 'json' && requestJson === TOO_DEEP) request = { kind: 'text' };
      if (response?.kind === 'json' && responseJson === TOO_DEEP) response = { kind: 'text' };
    }
    const limit = this.options.maxEvidenceBytes;
    // A body masked as text keeps the structural masking of its personal members: the only masking
    // of values too short to be masked in free text.
    const asText = (text: string, masked: boolean): string => {
      const cut = limit === undefined ? text : utf8Prefix(text, limit + MASKING_MARGIN);
      return masked ? this.text(maskPersonalMembers(cut)) : this.secretsOnly(cut);
    };
    const masked = (text: string, parsed: Body | undefined, structured: unknown): string => {
      if (!personal || parsed?.kind !== 'json') return asText(text, personal);
      const out = deepSafe(() => {
        const masked = maskPersonalJson(structured, { free: (s) => this.personalText(s), humanNames: true });
        // Unchanged bodies keep their exact text (number forms, spacing); changed ones keep their layout.
        const changed = JSON.stringify(masked) !== JSON.stringify(parsed.value);
        return changed ? JSON.stringify(masked, null, parsed.pretty ? 2 : undefined) : text;
      });
      return out === TOO_DEEP ? asText(text, true) : asText(out, false);
    };
    const body = (text: string, parsed: Body | undefined, structured: unknown, total: number, sent: boolean) => {
      const out = masked(text, parsed, structured);
      return limit === undefined ? out : cappedBody(out, limit, total, sent ? 'sent' : 'received');
    };

    return {
      method: x.request.method,
      url: this.masked(url, personal),
      operation: x.operation,
      startedAt: x.startedAt,
      duration: Math.round(x.durationMs * 10) / 10,
      request: {
        headers: this.headersMasked(x.request.headers, personal),
        ...(requestBody !== undefined
          ? { body: body(requestBody, request, requestJson, Buffer.byteLength(requestBody), true) }
          : {}),
      },
      ...(x.response && responseBody !== undefined
        ? {
            status: x.response.status,
            response: {
              headers: this.headersMasked(x.response.headers, personal),
              body: body(responseBody, response, responseJson, x.response.size, false),
              size: x.response.size,
              truncated: x.response.truncated,
            },
          }
        : {}),
      ...(x.error !== undefined ? { error: this.masked(x.error, personal) } : {}),
    };
  }

  private headerMasked(name: string, value: string, personal: boolean): string {
    if (!SECRET_HEADERS.has(name.toLowerCase())) return this.masked(value, personal);
    const scheme = /^(Bearer|Basic|Digest)\s+/i.exec(value);
    return scheme ? `${scheme[1]} ${MASK}` : MASK;
  }

  private headersMasked(headers: Record<string, string>, personal: boolean): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, this.headerMasked(k, v, personal)]));
  }

  /** Text of an exchange: secrets always, personal values and emails when `personal`. */
  private masked(value: string, personal: boolean): string {
    return personal ? this.text(value) : this.secretsOnly(value);
  }

  private secretsOnly(value: string): string {
    return this.tokenFields(this.secretValues(value));
  }

  private secretValues(value: string): string {
    let out = value;
    for (const s of this.secrets) {
      out = out.split(s).join(MASK);
      const encoded = encodeURIComponent(s);
      if (encoded !== s) out = out.split(encoded).join(MASK);
    }
    // Then the forms a target may echo it in: JSON escapes, percent-encoding, base64 (core/secretForms.ts).
    return maskSecretForms(out, this.secrets, MASK);
  }

  private tokenFields(value: string): string {
    return value.replace(jsonField, `$1"${MASK}"`).replace(formField, `$1$2${MASK}`);
  }

  private personalText(value: string): string {
    return this.options.personalData ? maskEmails(this.learned.mask(value)) : value;
  }

  private plainValue<T>(v: T): T {
    if (typeof v === 'string') return this.text(v) as T;
    if (Array.isArray(v)) return v.map((item: unknown) => this.plainValue(item)) as T;
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, this.plainValue(item)])) as T;
    }
    return v;
  }
}
