/**
 * Real local servers for the staging-connection tests (test/tls.test.ts): a TLS server with its
 * own certificate (which may demand a client certificate), a TLS front that serves a sandbox over
 * https, and a CONNECT proxy that counts the tunnels it opens. All listen on 127.0.0.1, port 0.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, request as forward, type Server } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { KeyPair } from './pki.ts';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export interface TlsServerOptions {
  pair: KeyPair;
  /** Demand a client certificate signed by this CA (PEM file): mutual TLS. */
  clientCa?: string;
  /** Highest TLS version (TLS 1.2 refuses a missing client certificate in the handshake, 1.3 after it). */
  maxVersion?: 'TLSv1.2' | 'TLSv1.3';
}

function tlsOptions(o: TlsServerOptions): ServerOptions {
  return {
    cert: readFileSync(o.pair.cert),
    key: readFileSync(o.pair.key),
    ...(o.clientCa ? { ca: readFileSync(o.clientCa), requestCert: true, rejectUnauthorized: true } : {}),
    ...(o.maxVersion ? { maxVersion: o.maxVersion } : {}),
  };
}

async function listen(server: Server, scheme: 'http' | 'https'): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // A refused handshake is the test's point, not a server error.
  server.on('tlsClientError', () => {});
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A TLS server answering every request with JSON naming the client certificate it received (CN), if any. */
export async function startTlsServer(o: TlsServerOptions): Promise<Listening & { clients: string[] }> {
  const clients: string[] = [];
  const server = createHttpsServer(tlsOptions(o), (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate?.();
    const cn = peer?.subject?.CN;
    if (typeof cn === 'string') clients.push(cn);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ path: req.url, client: cn ?? null }));
  });
  return { ...(await listen(server, 'https')), clients };
}

async function bodyOf(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The sandbox (or any http server) served over TLS: each request is forwarded to `upstream`, and
 * the upstream's own address in answers (discovery documents, links, Location) is written as the
 * front's https address.
 */
export async function startTlsFront(
  upstream: string,
  o: TlsServerOptions & {
    /**
     * As an ordinary TLS-terminating proxy (nginx's `proxy_pass` with `X-Forwarded-Proto` and
     * `X-Forwarded-Host`): answers pass unchanged, the upstream is told the address the client used.
     */
    forwarded?: boolean;
  },
): Promise<Listening> {
  const up = new URL(upstream);
  let self = '';
  const server = createHttpsServer(tlsOptions(o), async (req, res) => {
    const body = await bodyOf(req);
    const headers = {
      ...req.headers,
      host: up.host,
      ...(o.forwarded ? { 'x-forwarded-proto': 'https', 'x-forwarded-host': req.headers.host ?? '' } : {}),
    };
    const proxied = forward(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers },
      async (answer) => {
        const received = (await bodyOf(answer)).toString('utf8');
        const text = o.forwarded ? received : received.replaceAll(upstream, self);
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(answer.headers)) {
          if (v === undefined || ['content-length', 'transfer-encoding', 'connection'].includes(k)) continue;
          out[k] = k === 'location' && typeof v === 'string' && !o.forwarded ? v.replace(upstream, self) : v;
        }
        res.writeHead(answer.statusCode ?? 502, out).end(text);
      },
    );
    proxied.on('error', () => res.destroy());
    proxied.end(body);
  });
  const listening = await listen(server, 'https');
  self = listening.url;
  return listening;
}

/**
 * An HTTP proxy that opens CONNECT tunnels (as undici's proxy agent asks for http and https
 * targets alike) and counts them; `refuse` answers every CONNECT with that status instead.
 */
export async function startConnectProxy(
  options: { refuse?: number } = {},
): Promise<Listening & { tunnels: string[]; origin: string }> {
  const tunnels: string[] = [];
  const server = createHttpServer((_req, res) => res.writeHead(501).end('CONNECT only'));
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    client.on('error', () => {});
    if (options.refuse !== undefined) {
      client.end(`HTTP/1.1 ${options.refuse} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const target = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    target.on('error', () => client.destroy());
    client.on('close', () => target.destroy());
  });
  const listening = await listen(server, 'http');
  return { ...listening, tunnels, origin: listening.url };
}
