/**
 * Reads a pact file written by a partner's consumer tests (Pact specification 2, 3 or 4) into one
 * shape: its HTTP interactions with their request as recorded (path as written, query raw where
 * the file keeps it raw) and the response the consumer expects. A file that is not a pact is a
 * `PactFileError` with a one-line reason (the command's exit 2), never a stack trace.
 */
import { readFileSync } from 'node:fs';

export class PactFileError extends Error {}

export interface PactInteraction {
  /** Position in the file, 0-based. */
  index: number;
  description: string;
  providerStates: { name: string; params?: Record<string, unknown> }[];
  request: {
    method: string;
    path: string;
    /** Raw query string (specification 2), or undefined. */
    rawQuery?: string;
    /** Decoded query values (specification 3 and 4), or undefined. */
    query?: Record<string, string[]>;
    headers: Record<string, unknown>;
    /** The body as text (JSON bodies serialised), or undefined. */
    body?: string;
  };
  response: { status: number; headers: Record<string, unknown>; body?: string };
}

export interface PartnerPact {
  file: string;
  consumer: string;
  provider: string;
  specification: string;
  interactions: PactInteraction[];
  /** Interactions of other kinds (messages, plugins) that are not judged here: their descriptions. */
  notHttp: string[];
  /** The file as parsed (for the comparator and the verifier). */
  raw: Record<string, unknown>;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A body of any specification as text: V4 keeps `{ content, contentType, encoded }`. */
function bodyText(body: unknown, v4: boolean): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (v4 && isObject(body) && 'content' in body) {
    const content = body.content;
    if (body.encoded === 'base64' && typeof content === 'string')
      return Buffer.from(content, 'base64').toString('utf8');
    return typeof content === 'string' ? content : JSON.stringify(content);
  }
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function queryOf(query: unknown): Pick<PactInteraction['request'], 'rawQuery' | 'query'> {
  if (query === undefined) return {};
  if (typeof query === 'string') return { rawQuery: query };
  if (!isObject(query)) throw new PactFileError('a request query is neither a string nor an object');
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(query)) out[k] = (Array.isArray(v) ? v : [v]).map(String);
  return { query: out };
}

function statesOf(i: Record<string, unknown>): PactInteraction['providerStates'] {
  if (Array.isArray(i.providerStates))
    return i.providerStates.filter(isObject).map((s) => ({
      name: String(s.name ?? ''),
      ...(isObject(s.params) ? { params: s.params } : {}),
    }));
  return typeof i.providerState === 'string' ? [{ name: i.providerState }] : [];
}

export function readPact(file: string): PartnerPact {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new PactFileError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new PactFileError(`${file} is not JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!isObject(raw) || !Array.isArray(raw.interactions))
    throw new PactFileError(`${file} is not a pact: expected an object with an interactions array`);
  const consumer = isObject(raw.consumer) ? String(raw.consumer.name ?? '') : '';
  const provider = isObject(raw.provider) ? String(raw.provider.name ?? '') : '';
  if (!consumer || !provider) throw new PactFileError(`${file} is not a pact: consumer or provider name missing`);
  const metadata = isObject(raw.metadata) ? raw.metadata : {};
  const spec = isObject(metadata.pactSpecification)
    ? String(metadata.pactSpecification.version ?? '')
    : isObject(metadata['pact-specification'])
      ? String(metadata['pact-specification'].version ?? '')
      : '2.0.0';
  const v4 = spec.startsWith('4');
  const interactions: PactInteraction[] = [];
  const notHttp: string[] = [];
  raw.interactions.forEach((item, index) => {
    if (!isObject(item)) throw new PactFileError(`${file}: interaction ${index} is not an object`);
    const description = String(item.description ?? `interaction ${index}`);
    if (v4 && typeof item.type === 'string' && item.type !== 'Synchronous/HTTP') {
      notHttp.push(description);
      return;
    }
    const req = item.request;
    const res = item.response;
    if (!isObject(req) || typeof req.method !== 'string' || typeof req.path !== 'string')
      throw new PactFileError(`${file}: interaction "${description}" has no request method and path`);
    if (!isObject(res) || typeof res.status !== 'number')
      throw new PactFileError(`${file}: interaction "${description}" has no response status`);
    interactions.push({
      index,
      description,
      providerStates: statesOf(item),
      request: {
        method: req.method.toUpperCase(),
        path: req.path,
        ...queryOf(req.query),
        headers: isObject(req.headers) ? req.headers : {},
        body: bodyText(req.body, v4),
      },
      response: {
        status: res.status,
        headers: isObject(res.headers) ? res.headers : {},
        body: bodyText(res.body, v4),
      },
    });
  });
  if (interactions.length === 0) throw new PactFileError(`${file} holds no HTTP interaction to judge`);
  return { file, consumer, provider, specification: spec, interactions, notHttp, raw };
}
