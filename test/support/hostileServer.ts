/**
 * A hostile target for the self-test (issue 11): a real node:http server on 127.0.0.1 that
 * answers discovery and token requests as the sandbox does (it proxies them to a real sandbox,
 * with its own Host, so the discovery documents point back at it) and misbehaves on every other
 * call in one named way: it never sends headers, trickles its body, sends 100 MB, truncated JSON
 * or HTML as JSON, redirects to itself, resets the connection, answers 500 to everything, or
 * declares a Content-Length it does not send.
 */
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startSandbox } from '../../server/http.ts';

export const HOSTILITIES = [
  'no-headers',
  'trickle',
  'huge-body',
  'truncated-json',
  'html-as-json',
  'redirect-loop',
  'connection-reset',
  'server-error',
  'wrong-content-length',
] as const;

export type Hostility = (typeof HOSTILITIES)[number];

export interface HostileServer {
  url: string;
  /** Misbehaving calls received so far (discovery and token requests are not counted). */
  readonly hits: number;
  close(): Promise<void>;
}

/** Bytes the `huge-body` answer announces and streams (never held in memory at once). */
export const HUGE_BODY_BYTES = 100 * 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

/** Discovery documents and the token endpoint are answered correctly (proxied to the sandbox). */
function isProxied(path: string): boolean {
  return path.endsWith('/.well-known/api-configuration') || path === '/oauth/token';
}

/** Streams `total` bytes of an unterminated JSON string, honouring back-pressure, until the client leaves. */
function streamHuge(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': String(total) });
  const head = Buffer.from('{"resourceType":"Bundle","padding":"');
  res.write(head);
  sent += head.length;
  const pump = (): void => {
    while (!closed && sent < total) {
      const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
      sent += piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!closed) res.end();
  };
  pump();
}

export interface HostileOptions {
  /** Milliseconds between the bytes of a `trickle` answer (default 2000). */
  trickleMs?: number;
}

function misbehave(
  how: Hostility,
  req: IncomingMessage,
  res: ServerResponse,
  timers: Set<NodeJS.Timeout>,
  options: HostileOptions,
): void {
  switch (how) {
    case 'no-headers':
      return; // the socket stays open and silent
    case 'trickle': {
      res.writeHead(200, { 'content-type': JSON_TYPE });
      res.write('{');
      const timer = setInterval(() => res.write(' '), options.trickleMs ?? 2000);
      timers.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        timers.delete(timer);
      });
      return;
    }
    case 'huge-body':
      streamHuge(res, HUGE_BODY_BYTES);
      return;
    case 'truncated-json':
      res.writeHead(200, { 'content-type': JSON_TYPE });
      res.end('{"resourceType":"Bundle","type":"searchset","total":1,"entry":[{"resource":{"resourceType":"Pra');
      return;
    case 'html-as-json':
      res.writeHead(200, { 'content-type': JSON_TYPE });
      res.end('<!DOCTYPE html><html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>');
      return;
    case 'redirect-loop':
      res.writeHead(302, { location: req.url ?? '/' });
      res.end();
      return;
    case 'connection-reset': {
      const socket = req.socket as Socket & { resetAndDestroy?: () => void };
      if (socket.resetAndDestroy) socket.resetAndDestroy();
      else socket.destroy();
      return;
    }
    case 'server-error':
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
      return;
    case 'wrong-content-length':
      // Announces 4096 bytes, sends a short body and closes the connection.
      res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': '4096' });
      res.write('{"resourceType":"Bundle","type":"searchset"}');
      setImmediate(() => req.socket.destroy());
      return;
  }
}

function proxy(sandbox: string, req: IncomingMessage, res: ServerResponse): void {
  const target = new URL(req.url ?? '/', sandbox);
  // The Host header is the hostile server's own, so that the sandbox's discovery documents name it.
  const upstream = forward(target, { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

/** Starts a hostile target that misbehaves in the named way on every call but discovery and tokens. */
export async function startHostileServer(how: Hostility, options: HostileOptions = {}): Promise<HostileServer> {
  const sandbox = await startSandbox();
  const timers = new Set<NodeJS.Timeout>();
  let hits = 0;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://hostile.invalid').pathname;
    if (isProxied(path)) return proxy(sandbox.url, req, res);
    hits++;
    // The request body is read (and dropped) so that the misbehaviour is the answer's alone.
    req.resume();
    misbehave(how, req, res, timers, options);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get hits() {
      return hits;
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await sandbox.close();
    },
  };
}
