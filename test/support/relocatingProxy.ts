/**
 * A target whose addresses are not the sandbox's: a proxy in front of a sandbox that publishes
 * every operation under `/relocated/...` in its discovery documents, forwards those addresses to
 * the sandbox, and answers 404 at the sandbox's own (reference) addresses. A client that follows
 * discovery works against it; one that uses the reference addresses does not.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DISCOVERY_PATHS } from '../../server/router/addresses.ts';

export interface RelocatingProxy {
  url: string;
  /** Requests that reached a reference address (and were refused). */
  refused: string[];
  close(): Promise<void>;
}

const PREFIX = '/relocated';
/** Headers of one connection, not of the message (RFC 9110 7.6.1), and what fetch sets itself. */
const HOP_BY_HOP = ['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect'];
const PASS_THROUGH = ['/oauth/token', '/_pact/provider-states', ...Object.values(DISCOVERY_PATHS)];

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startRelocatingProxy(sandboxUrl: string): Promise<RelocatingProxy> {
  const refused: string[] = [];
  let self = '';
  const forward = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([k, v]) =>
        HOP_BY_HOP.includes(k) || v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]],
      ),
    );
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(await bodyOf(req));
    const answer = await fetch(`${sandboxUrl}${path}`, { method: req.method, headers, body, redirect: 'manual' });
    let text = await answer.text();
    // Discovery documents: every address moves under the prefix.
    if (Object.values(DISCOVERY_PATHS).includes(path.split('?')[0]))
      text = text.replaceAll(sandboxUrl, `${self}${PREFIX}`);
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    res.writeHead(answer.status, out).end(text);
  };
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const bare = path.split('?')[0];
    const handled = path.startsWith(`${PREFIX}/`)
      ? forward(req, res, path.slice(PREFIX.length))
      : PASS_THROUGH.includes(bare)
        ? forward(req, res, path)
        : Promise.resolve().then(() => {
            refused.push(`${req.method} ${bare}`);
            res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not here"}');
          });
    handled.catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    refused,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
