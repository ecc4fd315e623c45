/**
 * A secret echoed back encoded leaves no readable secret in any artefact of the certification
 * service either (issue 33, item 5, "in every artefact of the CLI and the service"): a product
 * registered against a target that echoes the run's client secret with JSON escapes,
 * percent-encoded and in base64 (test/support/secretEcho.ts) is run by the service; its run page,
 * the run's JSON, the report as the service serves it, every file of the signed archive, the
 * product's page and the audit export are read every way a reader could, and none holds it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { newPartner, Person } from '../service/testSupport/browserless.ts';
import { type EchoingTarget, readable, startEchoingTarget } from './support/secretEcho.ts';

const CLIENT_ID = DEMO_ENVIRONMENT.CONFORMANCE_CLIENT_ID as string;
const SECRET = DEMO_ENVIRONMENT.CONFORMANCE_CLIENT_SECRET as string;
const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };

let sandbox: RunningSandbox;
let echo: EchoingTarget;
let service: RunningService;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  echo = await startEchoingTarget(sandbox.url, CLIENT_ID, SECRET);
  service = await startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-masking-')),
    allowRanges: ['loopback'],
    port: 0,
    host: '127.0.0.1',
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: '5c'.repeat(32),
    },
  });
}, 60_000);
afterAll(async () => {
  await service?.close();
  await echo?.close();
  await sandbox?.close();
});

/** The files of a tar archive (ustar, 512-byte blocks), by name. */
function untar(archive: Buffer): Record<string, string> {
  const files: Record<string, string> = {};
  for (let at = 0; at + 512 <= archive.length; ) {
    const name = archive
      .subarray(at, at + 100)
      .toString('latin1')
      .replace(/\0.*$/s, '');
    if (name === '') break;
    const size = Number.parseInt(
      archive
        .subarray(at + 124, at + 136)
        .toString('latin1')
        .replace(/\0.*$/s, '')
        .trim(),
      8,
    );
    files[name] = archive.subarray(at + 512, at + 512 + size).toString('utf8');
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

test('the run page, its JSON, the served report, every file of the archive, the product page and the audit export hold no readable secret', async () => {
  const operator = new Person(service.url!);
  await operator.signIn(OPERATOR.email, OPERATOR.password);
  const partner = await newPartner(service.url!, operator, 'Echo');
  const product = (
    await partner.post('/products', {
      name: 'Echoing members',
      version: '1',
      baseUrl: echo.url,
      only: 'find-member-v2,get-user-details,search-bills',
    })
  ).location!;
  const run = (await partner.post(`${product}/runs`, {}, product)).location!;
  const runId = run.split('/').pop()!;
  for (;;) {
    const row = await service.ctx.db
      .selectFrom('runs')
      .select('state')
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    if (row.state !== 'queued' && row.state !== 'running') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // The target did echo it, and the scan can read it there.
  expect(readable(echo.oneAnswer(), SECRET)).toBe(true);
  expect(echo.oneAnswer()).not.toContain(SECRET);

  const texts: Record<string, string> = {
    'run page': (await partner.get(run)).text,
    'run JSON': (await partner.get(`${run}.json`)).text,
    'served report': (await partner.get(`${run}/report`)).text,
    'product page': (await partner.get(product)).text,
    'audit export (operator)': (await operator.get('/audit.jsonl')).text,
    'audit page (operator)': (await operator.get('/audit')).text,
  };
  const archive = await fetch(`${service.url}${run}/report.tar.gz`, {
    headers: { cookie: [...partner.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  expect(archive.status).toBe(200);
  const files = untar(gunzipSync(Buffer.from(await archive.arrayBuffer())));
  expect(Object.keys(files)).toEqual(expect.arrayContaining([expect.stringMatching(/report\.html$/)]));
  for (const [name, text] of Object.entries(files)) texts[`archive ${name}`] = text;
  // The echoes were recorded (masked), so the scan looked at them.
  expect(Object.values(files).some((t) => t.includes('echoEscaped'))).toBe(true);
  expect(texts['served report']).toContain('<html');
  expect(
    Object.entries(texts)
      .filter(([, t]) => readable(t, SECRET))
      .map(([where]) => where),
  ).toEqual([]);
}, 180_000);
