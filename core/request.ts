/**
 * Requests as the documents describe them: the operation's address from discovery, its path
 * parameters, query or form fields, and its documented headers with their placeholders filled.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { expect } from 'vitest';
import { operation } from '../spec/operations.ts';
import { suiteMayCall } from '../spec/suiteCoupling.ts';
import type { Operation } from '../spec/types.ts';
import type { Exchange } from './exchange.ts';
import { basicFor } from './suiteCredentials.ts';
import { worker } from './worker.ts';

export interface CallOptions {
  /** Form fields (POST operations); undefined values are left out. */
  form?: Record<string, string | undefined>;
  query?: Record<string, string | undefined>;
  path?: Record<string, string>;
  /** Extra or replacing headers. */
  headers?: Record<string, string>;
  /** Documented headers to leave out (case-insensitive names). */
  omitHeaders?: readonly string[];
  /** A raw body instead of the form encoding. */
  body?: string;
  /** multipart/form-data fields (Document 3, 4.3); undefined values are left out. */
  multipart?: Record<string, string | undefined>;
  /** Values of header placeholders (`{token}`, `{basic}`, `{userId}`, `{diaryToken}` ...). */
  values?: Record<string, string>;
}

function defined(fields: Record<string, string | undefined> | undefined): [string, string][] {
  return Object.entries(fields ?? {}).filter((kv): kv is [string, string] => kv[1] !== undefined);
}

/** A multipart/form-data body of the fields, with its Content-Type (boundary included). */
export function multipartBody(fields: readonly (readonly [string, string])[]): { body: string; contentType: string } {
  const boundary = `conformance-${randomUUID()}`;
  const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The Accept the suite sends an operation (DEC-R-08): the documented media type of a FHIR-style
 * operation (its `Content-Type: application/fhir+json`, D2 1, D1 4.6, D3 4.4) first, plain JSON
 * after it; `application/json` for every other. A server may honour Accept (RFC 9110 12.5.1), so
 * the suite names what the documents say each operation serves.
 */
export function acceptFor(op: Operation): string {
  const fhir = op.headers.some(
    (h) => h.name.toLowerCase() === 'content-type' && h.value.toLowerCase() === 'application/fhir+json',
  );
  return fhir ? 'application/fhir+json, application/json;q=0.9' : 'application/json';
}

/** Builds the request of an operation as the document describes it. */
export function buildRequest(op: Operation, options: CallOptions = {}): Exchange['request'] {
  const { ctx } = worker();
  const base = ctx.addresses[op.id];
  if (base === undefined) throw new Error(`Operation ${op.id} has no address in this run`);
  // A path parameter left undefined drops its whole segment (optional segments, e.g. a code set's
  // scheme); an empty string keeps the segment empty (to probe a missing id).
  const suffix = op.pathSuffix.replace(/\/\{(\w+)\}/g, (_, name: string) =>
    options.path?.[name] === undefined ? '' : `/${encodeURIComponent(options.path[name])}`,
  );
  const url = new URL(base + suffix);
  for (const [k, v] of defined(options.query)) url.searchParams.append(k, v);
  const omit = new Set((options.omitHeaders ?? []).map((h) => h.toLowerCase()));
  const headers: Record<string, string> = { accept: acceptFor(op) };
  for (const h of op.headers) {
    if (omit.has(h.name.toLowerCase())) continue;
    const values: Record<string, string> = {
      token: ctx.token,
      siteId: ctx.siteId,
      basic: basicFor('client') ?? '',
      ...options.values,
    };
    headers[h.name] = h.value.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  }
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    for (const existing of Object.keys(headers))
      if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
    headers[k] = v;
  }
  const parts = defined(options.multipart);
  if (options.body === undefined && parts.length > 0) {
    const m = multipartBody(parts);
    headers['Content-Type'] = m.contentType;
    return { method: op.method, url: url.toString(), headers, body: m.body };
  }
  const body =
    options.body ??
    (op.method === 'POST' || options.form ? new URLSearchParams(defined(options.form)).toString() : undefined);
  return { method: op.method, url: url.toString(), headers, ...(body !== undefined ? { body } : {}) };
}

/** Sends one request of the operation. Never throws for the target's behaviour. */
export async function call(id: string, options: CallOptions = {}): Promise<Exchange> {
  const op = operation(id);
  const suite = currentSuite();
  if (suite !== undefined && !suiteMayCall(suite, id, op.suite))
    throw new Error(`Suite bug: ${suite} calls ${id} of ${op.suite} without declaring it in spec/suiteCoupling.ts`);
  const x = await worker().client.send(buildRequest(op, options), id);
  if (!siteHeaderAsked(op, options, x)) return x;
  // DEC-D1-63: the refusal stays in the report as its own exchange; the checks judge the repeat.
  return worker().client.send(
    buildRequest(op, { ...options, headers: { ...options.headers, 'SU-SiteId': worker().ctx.siteId } }),
    id,
  );
}

/**
 * A clearing operation (Document 1, 4.6 to 4.12) takes its site from the token (5), and whether it
 * needs `SU-SiteId` is not said (DEC-D1-63): a 4xx refusal that names the header, of a request the
 * suite sent without it, is answered by sending the request once more with it.
 */
function siteHeaderAsked(op: Operation, options: CallOptions, x: Exchange): boolean {
  const clearing = op.document === 'D1' && op.headers.every((h) => h.name.toLowerCase() !== 'su-siteid');
  const sentWithout = Object.keys(options.headers ?? {}).every((h) => h.toLowerCase() !== 'su-siteid');
  const status = x.response?.status ?? 0;
  return clearing && sentWithout && status >= 400 && status < 500 && /SU-SiteId/i.test(x.response?.bodyText ?? '');
}

/** A suite's file: `suites/<name>.suite.ts` in the sources, `.suite.js` compiled (the installed package). */
const SUITE_FILE = /\.suite\.[jt]s$/;

/** The suite whose test is running, if any. */
function currentSuite(): string | undefined {
  const file = expect.getState().testPath;
  return file && SUITE_FILE.test(file) ? basename(file).replace(SUITE_FILE, '') : undefined;
}
