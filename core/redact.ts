/**
 * Masking of secrets before an exchange leaves the process (events, results, reports, logs).
 * Credential headers keep their scheme; known secret values are replaced wherever they appear;
 * token-bearing fields of form and JSON bodies are masked by name.
 */
import type { Exchange } from './exchange.ts';
import type { ExchangeRecord } from './results.ts';

export const MASK = '****';

/** `masked` (the default): secrets and personal data are masked; `full`: only secrets are. */
export type EvidenceMode = 'masked' | 'full';

export interface RedactorOptions {
  /** Mask personal data of patients and members (names, birth dates, addresses, ...). */
  personalData?: boolean;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'secret', 'clientid', 'x-api-key']);
const SECRET_FIELDS = ['access_token', 'refresh_token', 'id_token', 'client_secret', 'password', 'token', 'secret'];
const fieldPattern = SECRET_FIELDS.join('|');
const jsonField = new RegExp(`("(?:${fieldPattern})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
const formField = new RegExp(`(^|[&?])((?:${fieldPattern})=)[^&#]*`, 'gi');

export class Redactor {
  private readonly secrets: string[];
  readonly options: RedactorOptions;

  constructor(secrets: readonly string[] = [], options: RedactorOptions = {}) {
    this.options = options;
    // Longest first so a secret containing another is masked whole; ignore trivially short values.
    this.secrets = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  }

  /** A new redactor that also masks these values (e.g. a token obtained during the run). */
  with(more: readonly string[]): Redactor {
    return new Redactor([...this.secrets, ...more], this.options);
  }

  text(value: string): string {
    let out = value;
    for (const s of this.secrets) {
      out = out.split(s).join(MASK);
      const encoded = encodeURIComponent(s);
      if (encoded !== s) out = out.split(encoded).join(MASK);
    }
    return out.replace(jsonField, `$1"${MASK}"`).replace(formField, `$1$2${MASK}`);
  }

  /** Any JSON value (check evidence, a counterexample) with every string in it masked. */
  value<T>(v: T): T {
    if (typeof v === 'string') return this.text(v) as T;
    if (Array.isArray(v)) return v.map((item: unknown) => this.value(item)) as T;
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, this.value(item)])) as T;
    }
    return v;
  }

  header(name: string, value: string): string {
    if (!SECRET_HEADERS.has(name.toLowerCase())) return this.text(value);
    const scheme = /^(Bearer|Basic|Digest)\s+/i.exec(value);
    return scheme ? `${scheme[1]} ${MASK}` : MASK;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, this.header(k, v)]));
  }

  /** The exchange as it may be written anywhere. */
  exchange(x: Exchange): ExchangeRecord {
    return {
      method: x.request.method,
      url: this.text(x.request.url),
      operation: x.operation,
      startedAt: x.startedAt,
      duration: Math.round(x.durationMs * 10) / 10,
      request: {
        headers: this.headers(x.request.headers),
        ...(x.request.body !== undefined ? { body: this.text(x.request.body) } : {}),
      },
      ...(x.response
        ? {
            status: x.response.status,
            response: {
              headers: this.headers(x.response.headers),
              body: this.text(x.response.bodyText),
              size: x.response.size,
              truncated: x.response.truncated,
            },
          }
        : {}),
      ...(x.error !== undefined ? { error: this.text(x.error) } : {}),
    };
  }
}
