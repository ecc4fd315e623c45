/**
 * A secret echoed back encoded (issue 33, item 5): a target that returns the run's client secret
 * with JSON escapes (`\u0073`, `\/`), percent-encoded, and in base64 inside a Basic credential
 * leaves no readable secret in any artefact: every file of the report folder (report.html, which
 * reads bodies as JSON, above all) and the command's output are decoded every way a reader could
 * (JSON escapes, HTML entities, percent-encoding, base64 at every alignment) and searched. The same
 * scan over one answer of the target finds the secret, which proves it can.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { type CliResult, reportDir, runCli } from './support/cli.ts';

const CLIENT_ID = DEMO_ENVIRONMENT.CONFORMANCE_CLIENT_ID as string;
const SECRET = DEMO_ENVIRONMENT.CONFORMANCE_CLIENT_SECRET as string;

const jsonEscaped = (s: string) =>
  [...s]
    .map((c, i) => (c === '/' ? '\\/' : i % 2 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
    .join('');
const percent = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
/** The members the target adds to every JSON object it answers, after its opening brace. */
const ECHO = `"echoEscaped":"${jsonEscaped(SECRET)}","echoPercent":"${percent(SECRET)}","echoBasic":"Basic ${Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64')}",`;

/** Every reading of a text a person or a tool could make. */
function readings(text: string): string[] {
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

const readable = (text: string) => readings(text).some((r) => r.includes(SECRET));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

let sandbox: RunningSandbox;
let echo: { url: string; close: () => Promise<void> };
let oneAnswer = '';
let self = '';
let dir = '';
let cli: CliResult;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const server = createServer(async (req, res) => {
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([k, v]) =>
        ['host', 'content-length', 'connection'].includes(k) || v === undefined
          ? []
          : [[k, Array.isArray(v) ? v.join(', ') : v]],
      ),
    );
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(await bodyOf(req));
    const answer = await fetch(`${sandbox.url}${req.url}`, { method: req.method, headers, body, redirect: 'manual' });
    // Discovery names the proxy's addresses, so every call comes through it.
    let text = (await answer.text()).replaceAll(sandbox.url, self);
    // Discovery documents and tokens pass unchanged; every other JSON object answered echoes the secret.
    const passes = /well-known|configuration|oauth\/token/.test(req.url ?? '');
    if (!passes && /json/.test(answer.headers.get('content-type') ?? '') && text.trimStart().startsWith('{')) {
      text = text.replace('{', `{${ECHO}`);
      oneAnswer ||= text;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    res.writeHead(answer.status, out).end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self = url;
  echo = { url, close: () => new Promise<void>((r) => server.close(() => r())) };

  dir = reportDir();
  const configFile = join(reportDir(), 'config.json');
  writeFileSync(configFile, JSON.stringify({ ...JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')), target: url }));
  cli = await runCli(
    [
      'run',
      '--target',
      url,
      '--config',
      configFile,
      '--only',
      'find-member-v2,get-user-details,search-bills',
      '--runs',
      '3',
      '--seed',
      '5',
      '--report-dir',
      dir,
    ],
    { env: DEMO_ENVIRONMENT, timeoutMs: 200_000 },
  );
}, 240_000);

afterAll(async () => {
  await echo?.close();
  await sandbox?.close();
});

describe('a secret echoed back encoded', () => {
  test('the scan reads the secret in what the target answered (it can see it)', () => {
    expect(oneAnswer).toContain('echoEscaped');
    expect(oneAnswer).not.toContain(SECRET);
    expect(readable(oneAnswer)).toBe(true);
  });

  test('no artefact of the run, nor its output, holds it in any reading', () => {
    const texts: Record<string, string> = { stdout: cli.stdout, stderr: cli.stderr };
    for (const f of filesUnder(dir)) texts[f.slice(dir.length + 1)] = readFileSync(f, 'utf8');
    expect(Object.keys(texts)).toEqual(expect.arrayContaining(['report.html', 'results.json', 'junit.xml']));
    // The echoes were recorded (masked), so the scan looked at them.
    expect(texts['results.json']).toContain('echoEscaped');
    expect(
      Object.entries(texts)
        .filter(([, t]) => readable(t))
        .map(([where]) => where),
    ).toEqual([]);
  });
});
