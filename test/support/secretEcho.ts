/**
 * A target that echoes a secret back encoded (issue 33, item 5), and the scan that looks for it:
 * a forwarding server in front of a sandbox adds, to every JSON object it answers (discovery
 * documents and tokens pass unchanged), the secret with JSON escapes (`\u0073`, `\/`),
 * percent-encoded, and in base64 inside a Basic credential. `readable` decodes a text every way
 * a reader could (JSON escapes, HTML entities, percent-encoding, base64 at every alignment) and
 * says whether the secret can be read in it. Used for the command's artefacts
 * (test/maskingEncoded.test.ts) and the service's (test/serviceMaskingEncoded.test.ts).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

const jsonEscaped = (s: string) =>
  [...s]
    .map((c, i) => (c === '/' ? '\\/' : i % 2 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
    .join('');
const percent = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');

/** Every reading of a text a person or a tool could make. */
export function readings(text: string): string[] {
  const out = [text];
  const unescaped = text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    .replace(/\\\//g, '/')
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  out.push(unescaped);
  out.push(unescaped.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))));
  for (const run of unescaped.match(/[A-Za-z0-9+/_-]{12,}/g) ?? [])
    for (let cut = 0; cut < 4; cut++) out.push(Buffer.from(run.slice(cut), 'base64').toString('latin1'));
  return out;
}

/** Whether `secret` can be read in `text` in any reading. */
export const readable = (text: string, secret: string): boolean => readings(text).some((r) => r.includes(secret));

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export interface EchoingTarget {
  url: string;
  /** One answer that echoed the secret, as sent (empty until one was). */
  oneAnswer(): string;
  close(): Promise<void>;
}

/** Starts the echoing target in front of the sandbox at `upstream`, on 127.0.0.1 port 0. */
export async function startEchoingTarget(upstream: string, clientId: string, secret: string): Promise<EchoingTarget> {
  const echo = `"echoEscaped":"${jsonEscaped(secret)}","echoPercent":"${percent(secret)}","echoBasic":"Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}",`;
  let self = '';
  let oneAnswer = '';
  const server = createServer(async (req, res) => {
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([k, v]) =>
        ['host', 'content-length', 'connection'].includes(k) || v === undefined
          ? []
          : [[k, Array.isArray(v) ? v.join(', ') : v]],
      ),
    );
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(await bodyOf(req));
    const answer = await fetch(`${upstream}${req.url}`, { method: req.method, headers, body, redirect: 'manual' });
    // Discovery names the forwarder's addresses, so every call comes through it.
    let text = (await answer.text()).replaceAll(upstream, self);
    const passes = /well-known|configuration|oauth\/token/.test(req.url ?? '');
    if (!passes && /json/.test(answer.headers.get('content-type') ?? '') && text.trimStart().startsWith('{')) {
      text = text.replace('{', `{${echo}`);
      oneAnswer ||= text;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    res.writeHead(answer.status, out).end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    oneAnswer: () => oneAnswer,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
