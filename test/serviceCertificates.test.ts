/**
 * The service signs its runs and issues certificates (issue 25, items 6 and 7), over real HTTP on
 * 127.0.0.1 against real sandboxes (one clean, one breaking a documented rule), on the embedded
 * database and on PostgreSQL (a throwaway cluster; skipped with a line when the server binaries
 * are not installed): the public key set, a conformant run signed and certified, a failing run
 * signed without a certificate (the run page says why), the public certificate page and its
 * status, expiry (the service's clock moved), the operator's revocation (a partner is answered
 * 404, a form without its token refused), and `conformance verify-report` on the signed folder
 * downloaded from the run page: accepted with the signer and the certificate's status, revoked
 * after revocation, altered when changed, an unknown signer when signed by another key.
 *
 * Scope is part of the certificate (issue 32): a server keeping an acknowledged batch (a MUST
 * break) is not conformant when its product allows changes, and certified without ack-remittance
 * (left out: the product did not allow changes) when it does not; a second conformant run of one
 * version and scope supersedes the first (its page, its status and verify-report say so, exit 0);
 * another scope (changes allowed on the product's page) is another certificate, both valid.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MustCoverage } from '../core/results.ts';
import { generateSigningKeyPair, type ReportStatement, signingKeyFromPem, signStatement } from '../core/signing.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import {
  type CertificateScope,
  type CertificateStatement,
  certificateDecision,
  certificateStatus,
  certifiedOperations,
  LEFT_OUT_REASONS,
  sameScope,
} from '../service/certificates.ts';
import { ServiceKeyProblem } from '../service/secrets.ts';
import { SIGNING_KEY_FILE } from '../service/signingKey.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { newPartner, Person } from '../service/testSupport/browserless.ts';
import { postgresAvailable, startThrowawayPostgres, type ThrowawayPostgres } from '../service/testSupport/postgres.ts';
import { runInProcess } from './support/cli.ts';
import { readmeBlock, runBlock, shims } from './support/readme.ts';

const PG = postgresAvailable();
if (!PG)
  console.warn('PostgreSQL server binaries not installed: the PostgreSQL variant of the service tests is skipped');
const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
/** One operation keeps each run to seconds: Find Member judges every testable MUST row in scope on the clean sandbox. */
const ONLY = 'find-member-v2';
const FAULT = 'no-match-status-200';
/** Find Member and the acknowledgement of a batch: the latter judged in full only when changes are allowed. */
const WITH_ACK = 'find-member-v2,ack-remittance';
const ACK_FAULT = 'ack-keeps-batch';
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
const DAY = 86_400_000;

let pg: ThrowawayPostgres | undefined;
let clean: RunningSandbox;
let faulty: RunningSandbox;
let keepsBatch: RunningSandbox;
beforeAll(async () => {
  if (PG) pg = await startThrowawayPostgres();
  clean = await startSandbox({ port: 0 });
  faulty = await startSandbox({ port: 0, faults: [FAULT] });
  keepsBatch = await startSandbox({ port: 0, faults: [ACK_FAULT] });
}, 60_000);
afterAll(async () => {
  await clean?.close();
  await faulty?.close();
  await keepsBatch?.close();
  pg?.stop();
});

/** A clock the tests move (expiry). */
const clock = { offsetMs: 0 };

async function serviceOn(engine: 'sqlite' | 'postgres', extra: Parameters<typeof startService>[0] = {}) {
  return startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-certificates-')),
    ...(engine === 'postgres'
      ? { databaseUrl: await pg!.createDatabase(`certificates_${Math.floor(Math.random() * 1e9)}`) }
      : {}),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: '5a'.repeat(32),
    },
    allowRanges: ['loopback'],
    now: () => new Date(Date.now() + clock.offsetMs),
    ...extra,
  });
}

const partnerOf = (service: RunningService, operator: Person, name: string): Promise<Person> =>
  newPartner(service.url!, operator, name);

/** Starts a run of the product and waits until it has ended; answers the run's path. */
async function runToEnd(service: RunningService, partner: Person, product: string): Promise<string> {
  const run = (await partner.post(`${product}/runs`, {}, product)).location!;
  const id = run.split('/').pop()!;
  const until = Date.now() + 120_000;
  for (;;) {
    const row = await service.ctx.db.selectFrom('runs').select('state').where('id', '=', id).executeTakeFirstOrThrow();
    if (row.state === 'finished' || row.state === 'failed') return run;
    if (Date.now() > until) throw new Error(`run ${id} still ${row.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Downloads the run's signed archive under the name the service gives it; answers its folder and name. */
async function downloadArchive(person: Person, run: string): Promise<{ into: string; id: string }> {
  const response = await fetch(`${person.base}${run}/report.tar.gz`, {
    headers: { cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/gzip');
  const id = run.split('/').pop()!;
  expect(response.headers.get('content-disposition')).toBe(`attachment; filename="conformance-report-${id}.tar.gz"`);
  const into = mkdtempSync(join(tmpdir(), 'signed-download-'));
  writeFileSync(join(into, `conformance-report-${id}.tar.gz`), Buffer.from(await response.arrayBuffer()));
  return { into, id };
}

/** Downloads the run's signed folder and unpacks it; answers the folder. */
async function downloadSigned(person: Person, run: string): Promise<string> {
  const { into, id } = await downloadArchive(person, run);
  execFileSync('tar', ['-xzf', `conformance-report-${id}.tar.gz`], { cwd: into });
  return join(into, `conformance-report-${id}`);
}

const lastLine = (text: string) => text.trim().split('\n').at(-1);

/** The certificate the run page links, or undefined. */
async function certificateOf(person: Person, run: string): Promise<string | undefined> {
  return /<a id="certificate" href="\/certificates\/([\w-]+)">/.exec((await person.get(run)).text)?.[1];
}

/** What a certificate states (its JWS payload, as stored). */
async function statementOf(service: RunningService, certificate: string): Promise<CertificateStatement> {
  const row = await service.ctx.db
    .selectFrom('certificates')
    .select('jws')
    .where('id', '=', certificate)
    .executeTakeFirstOrThrow();
  return JSON.parse(Buffer.from(row.jws!.split('.')[1], 'base64url').toString('utf8')) as CertificateStatement;
}

const statusOf = async (service: RunningService, certificate: string) =>
  (await fetch(`${service.url}/certificates/${certificate}.json`)).json();
const engines = ['sqlite' as const, ...(PG ? ['postgres' as const] : [])];

describe.each(engines)('on %s', (engine) => {
  let service: RunningService;
  let operator: Person;
  let partner: Person;
  let product: string;
  let certifiedRun: string;
  let certificate: string;
  let jwksUrl: string;
  let signedDir: string;

  beforeAll(async () => {
    service = await serviceOn(engine);
    jwksUrl = `${service.url}/.well-known/jwks.json`;
    operator = new Person(service.url!);
    await operator.signIn(OPERATOR.email, OPERATOR.password);
    partner = await partnerOf(service, operator, `Acme-${engine}`);
    product = (
      await partner.post('/products', { name: 'Acme members', version: '3.2', baseUrl: clean.url, only: ONLY })
    ).location!;
  }, 60_000);
  afterAll(() => service?.close());

  test('the public key set is served to anyone: the service key’s public half, no private part', async () => {
    const response = await fetch(jwksUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    const jwks = (await response.json()) as JSONWebKeySet;
    expect(jwks.keys).toEqual([service.ctx.signingKey.publicJwk]);
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    if (engine === 'sqlite') {
      // Generated on first start into the data folder, readable by its owner alone.
      const file = join(service.ctx.settings.dataDir, SIGNING_KEY_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  test('a conformant run is signed and earns a certificate: the run page links it, the product page lists it', async () => {
    certifiedRun = await runToEnd(service, partner, product);
    const id = certifiedRun.split('/').pop()!;
    const row = await service.ctx.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'finished', verdict: 'conformant' });
    expect(row.signature).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(row.results_digest).toMatch(/^[0-9a-f]{64}$/);
    const files = await service.ctx.db.selectFrom('run_files').select('name').where('run_id', '=', id).execute();
    expect(files.map((f) => f.name).sort()).toEqual([
      'junit.xml',
      'report.html',
      'requirements-coverage.csv',
      'results.json',
      'signature.json',
      'signature.jws',
    ]);
    const page = await partner.get(certifiedRun);
    const link = /<a id="certificate" href="\/certificates\/([\w-]+)">/.exec(page.text);
    expect(link, page.text).not.toBeNull();
    certificate = link![1];
    expect(page.text).toContain(`<a id="download" href="${certifiedRun}/report.tar.gz">`);
    // report.html names its signer, stated in the results before they were sealed.
    const report = await partner.get(`${certifiedRun}/report`);
    expect(report.text).toContain(
      `<p id="signer" class="signer" data-signer="${service.url}" data-kid="${service.ctx.signingKey.kid}">`,
    );
    const history = await partner.get(product);
    expect(history.text).toMatch(
      new RegExp(
        `<table id="certificates">.*<a href="/certificates/${certificate}">.*class="certificate-valid">valid<`,
        's',
      ),
    );
    // The certificate is a JWS of the service's key, stating what was certified.
    const stored = await service.ctx.db
      .selectFrom('certificates')
      .selectAll()
      .where('id', '=', certificate)
      .executeTakeFirstOrThrow();
    const keys = createLocalJWKSet((await (await fetch(jwksUrl)).json()) as JSONWebKeySet);
    const { payload, protectedHeader } = await compactVerify(stored.jws!, keys);
    expect(protectedHeader).toMatchObject({
      alg: 'EdDSA',
      kid: service.ctx.signingKey.kid,
      typ: 'conformance-certificate+jws',
    });
    const stated = JSON.parse(new TextDecoder().decode(payload)) as CertificateStatement;
    expect(stated).toMatchObject({
      id: certificate,
      issuer: service.url,
      organisation: { name: `Acme-${engine}` },
      product: { name: 'Acme members', version: '3.2' },
      suite: { version: VERSION },
      scope: { kind: 'server', documents: ['D1'], operations: [ONLY] },
      runId: id,
      resultsDigest: { algorithm: 'sha256', digest: row.results_digest },
      status: `${service.url}/certificates/${certificate}.json`,
    });
    expect(Date.parse(stated.expiresAt) - Date.parse(stated.issuedAt)).toBe(365 * DAY);
  }, 150_000);

  test('the certificate’s page and status are public; an unknown certificate is 404', async () => {
    const anyone = new Person(service.url!);
    const page = await anyone.get(`/certificates/${certificate}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<strong id="certificate-status">valid</strong>');
    for (const text of ['Acme members', '3.2', `Acme-${engine}`, ONLY, VERSION]) expect(page.text).toContain(text);
    expect(page.text).toContain(
      `<code id="verify-command">npx conformance verify-report DIR --key ${service.url}/.well-known/jwks.json</code>`,
    );
    expect(page.text).not.toContain('id="revoke"');
    expect((await partner.get(`/certificates/${certificate}`)).text).not.toContain('id="revoke"');
    const status = await fetch(`${service.url}/certificates/${certificate}.json`);
    expect(status.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await status.json()).toMatchObject({ status: 'valid', id: certificate });
    expect((await anyone.get('/certificates/no-such-certificate')).status).toBe(404);
    expect((await fetch(`${service.url}/certificates/no-such-certificate.json`)).status).toBe(404);
  });

  test('the README’s command unpacks the downloaded archive and verifies it with the service’s key set: the signer, the certificate valid', async () => {
    const { into, id } = await downloadArchive(partner, certifiedRun);
    // The README's own text (readme-test: verify-download), its placeholders given this run's.
    const command = readmeBlock('verify-download')
      .text.replaceAll('RUN', id)
      .replaceAll('https://certify.example.com', new URL(jwksUrl).origin);
    const r = await runBlock(command, into, shims());
    signedDir = join(into, `conformance-report-${id}`);
    expect(r.out).toContain(`signature: verified: signed by ${service.url} at `);
    expect(r.out).toContain(`(key ${service.ctx.signingKey.kid}, EdDSA; checked with the key set at ${jwksUrl})`);
    expect(r.out).toContain(`certificate ${certificate}: VALID (${service.url}/certificates/${certificate}.json)`);
    expect(lastLine(r.out)).toBe(`SIGNED AND INTACT: ${signedDir} is as ${service.url} signed it`);
    expect(r.code).toBe(0);
  }, 60_000);

  test('verify-report: a changed folder is altered; a folder signed by another key is an unknown signer', async () => {
    const tampered = join(mkdtempSync(join(tmpdir(), 'tampered-')), 'report');
    cpSync(signedDir, tampered, { recursive: true });
    const results = JSON.parse(readFileSync(join(tampered, 'results.json'), 'utf8'));
    results.target = 'https://elsewhere.example';
    writeFileSync(join(tampered, 'results.json'), JSON.stringify(results, null, 2));
    const altered = await runInProcess(['verify-report', tampered, '--key', jwksUrl]);
    expect(lastLine(altered.stdout)).toBe(`ALTERED: ${tampered} was changed after ${service.url} signed it`);
    expect(altered.code).toBe(1);

    const forged = join(mkdtempSync(join(tmpdir(), 'other-key-')), 'report');
    cpSync(signedDir, forged, { recursive: true });
    const other = await signingKeyFromPem((await generateSigningKeyPair()).privatePem);
    const {
      kid: _kid,
      alg: _alg,
      note: _note,
      ...statement
    } = JSON.parse(readFileSync(join(forged, 'signature.json'), 'utf8')) as ReportStatement & {
      kid: string;
      alg: string;
      note: string;
    };
    writeFileSync(join(forged, 'signature.jws'), `${await signStatement(statement, other)}\n`);
    const unknown = await runInProcess(['verify-report', forged, '--key', jwksUrl]);
    expect(unknown.stdout).toContain(`signature: unknown signer: no key with kid ${other.kid} in the key set`);
    expect(lastLine(unknown.stdout)).toBe(
      `UNKNOWN SIGNER: ${forged} was not signed by the key set at ${jwksUrl} (signature.jws names key ${other.kid})`,
    );
    expect(unknown.code).toBe(1);
  }, 60_000);

  test('a certificate past its validity is expired, on its page and in its status', async () => {
    clock.offsetMs = 366 * DAY;
    try {
      expect((await new Person(service.url!).get(`/certificates/${certificate}`)).text).toContain(
        '<strong id="certificate-status">expired</strong>',
      );
      expect(await (await fetch(`${service.url}/certificates/${certificate}.json`)).json()).toMatchObject({
        status: 'expired',
      });
    } finally {
      clock.offsetMs = 0;
    }
  });

  test('a run of a server breaking a rule is signed, earns no certificate, and its page says why', async () => {
    const broken = (
      await partner.post('/products', { name: 'Acme members', version: '3.3', baseUrl: faulty.url, only: ONLY })
    ).location!;
    const run = await runToEnd(service, partner, broken);
    const id = run.split('/').pop()!;
    const row = await service.ctx.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'finished', verdict: 'not-conformant' });
    expect(row.signature).not.toBeNull();
    const page = await partner.get(run);
    expect(page.text).not.toContain('id="certificate"');
    expect(page.text).toContain(
      '<p id="no-certificate">No certificate: the run is not conformant (verdict not-conformant).</p>',
    );
    const certificates = await service.ctx.db
      .selectFrom('certificates')
      .select('id')
      .where('run_id', '=', id)
      .execute();
    expect(certificates).toEqual([]);
    expect((await partner.get(broken)).text).toContain('<p id="no-certificates">');
    // The earlier certificate of the other version stands.
    expect(await (await fetch(`${service.url}/certificates/${certificate}.json`)).json()).toMatchObject({
      status: 'valid',
    });
  }, 150_000);

  let ledger: string;
  let ledgerRun: string;
  let ledgerCertificate: string;

  test('a server keeping an acknowledged batch: allowed to change it, not conformant and no certificate', async () => {
    const product = (
      await partner.post('/products', {
        name: 'Ledger',
        version: '1',
        baseUrl: keepsBatch.url,
        only: WITH_ACK,
        allowChanges: 'on',
      })
    ).location!;
    const page = await partner.get(product);
    expect(page.text).toContain('<p id="allow-changes" data-allow-changes="yes">');
    expect(page.text).toMatch(/<input type="checkbox" name="allowChanges" value="on" checked>/);
    const run = await runToEnd(service, partner, product);
    const id = run.split('/').pop()!;
    const row = await service.ctx.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'finished', verdict: 'not-conformant' });
    const results = await service.ctx.db
      .selectFrom('run_files')
      .select('content')
      .where('run_id', '=', id)
      .where('name', '=', 'results.json')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(results.content)).toMatchObject({ allowDestructive: true });
    expect((await partner.get(run)).text).toContain(
      '<p id="no-certificate">No certificate: the run is not conformant (verdict not-conformant).</p>',
    );
    expect(await service.ctx.db.selectFrom('certificates').select('id').where('run_id', '=', id).execute()).toEqual([]);
  }, 150_000);

  test('not allowed to change it: a certificate leaving ack-remittance out, in its statement and page', async () => {
    ledger = (
      await partner.post('/products', { name: 'Ledger', version: '1', baseUrl: keepsBatch.url, only: WITH_ACK })
    ).location!;
    expect((await partner.get(ledger)).text).toContain('<p id="allow-changes" data-allow-changes="no">');
    ledgerRun = await runToEnd(service, partner, ledger);
    const row = await service.ctx.db
      .selectFrom('runs')
      .selectAll()
      .where('id', '=', ledgerRun.split('/').pop()!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'finished', verdict: 'conformant' });
    ledgerCertificate = (await certificateOf(partner, ledgerRun))!;
    expect(ledgerCertificate).toBeDefined();
    const scope: CertificateScope = {
      kind: 'server',
      documents: ['D1'],
      operations: ['find-member-v2'],
      leftOut: [{ operation: 'ack-remittance', reason: 'omitted: the product did not allow changes' }],
    };
    expect((await statementOf(service, ledgerCertificate)).scope).toEqual(scope);
    const page = await new Person(service.url!).get(`/certificates/${ledgerCertificate}`);
    expect(page.text).toContain('<td id="certificate-operations">find-member-v2</td>');
    expect(page.text).toContain(
      '<li data-operation="ack-remittance"><code>ack-remittance</code>: ' +
        'omitted: the product did not allow changes</li>',
    );
    expect(await statusOf(service, ledgerCertificate)).toEqual({
      status: 'valid',
      id: ledgerCertificate,
      issuedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
  }, 150_000);

  test('a second conformant run of one version and scope supersedes the first; verify-report exits 0', async () => {
    const firstFolder = await downloadSigned(partner, ledgerRun);
    const second = await runToEnd(service, partner, ledger);
    const successor = (await certificateOf(partner, second))!;
    expect(successor).toBeDefined();
    expect(successor).not.toBe(ledgerCertificate);
    expect((await statementOf(service, successor)).scope).toEqual(
      (await statementOf(service, ledgerCertificate)).scope,
    );
    expect(await statusOf(service, ledgerCertificate)).toMatchObject({
      status: 'superseded',
      supersededBy: successor,
      supersededAt: expect.any(String),
    });
    expect(await statusOf(service, successor)).toMatchObject({ status: 'valid' });
    const anyone = new Person(service.url!);
    const page = await anyone.get(`/certificates/${ledgerCertificate}`);
    expect(page.text).toContain('<strong id="certificate-status">superseded</strong>');
    expect(page.text).toContain(`<a id="superseded-by" href="/certificates/${successor}">${successor}</a>`);
    // Still what it was: the statement and the list of what was left out stand.
    expect(page.text).toContain('<td id="certificate-operations">find-member-v2</td>');
    expect((await anyone.get(`/certificates/${successor}`)).text).toContain(
      `<td id="certificate-supersedes"><a href="/certificates/${ledgerCertificate}">${ledgerCertificate}</a></td>`,
    );
    const history = (await partner.get(ledger)).text;
    expect(history).toMatch(
      new RegExp(`<a href="/certificates/${ledgerCertificate}">.*?class="certificate-superseded">superseded<`, 's'),
    );
    expect(history).toMatch(
      new RegExp(`<a href="/certificates/${successor}">.*?class="certificate-valid">valid<`, 's'),
    );
    const standing = await service.ctx.db
      .selectFrom('certificates')
      .select('id')
      .where('product_id', '=', ledger.split('/').pop()!)
      .where('superseded_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    expect(standing).toEqual([{ id: successor }]);
    // The first run's folder still verifies as what it was; its certificate is named superseded, not refused.
    const r = await runInProcess(['verify-report', firstFolder, '--key', jwksUrl]);
    expect(r.stdout).toContain(
      `certificate ${ledgerCertificate}: SUPERSEDED by ${successor} ` +
        `(${service.url}/certificates/${ledgerCertificate}.json)`,
    );
    expect(lastLine(r.stdout)).toBe(`SIGNED AND INTACT: ${firstFolder} is as ${service.url} signed it`);
    expect(r.code).toBe(0);
  }, 150_000);

  test('another scope (changes allowed on the product’s page) is another certificate: both valid', async () => {
    // A sandbox of its own: the run that acknowledges batches changes its data.
    const own = await startSandbox({ port: 0 });
    try {
      const product = (
        await partner.post('/products', { name: 'Books', version: '2', baseUrl: own.url, only: WITH_ACK })
      ).location!;
      const first = (await certificateOf(partner, await runToEnd(service, partner, product)))!;
      expect((await statementOf(service, first)).scope.leftOut).toEqual([
        { operation: 'ack-remittance', reason: 'omitted: the product did not allow changes' },
      ]);
      // The form is the product page's, with its token; without one it is refused; a wrong value is one line.
      expect((await partner.request('POST', `${product}/changes`, { allowChanges: 'on' })).status).toBe(403);
      const wrong = await partner.post(`${product}/changes`, { allowChanges: 'yes please' }, product);
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('<p class="problem">Expected allowChanges &quot;on&quot; or absent, received');
      expect(await partner.post(`${product}/changes`, { allowChanges: 'on' }, product)).toMatchObject({
        status: 303,
        location: product,
      });
      expect((await partner.get(product)).text).toContain('<p id="allow-changes" data-allow-changes="yes">');
      const second = (await certificateOf(partner, await runToEnd(service, partner, product)))!;
      expect(second).toBeDefined();
      expect((await statementOf(service, second)).scope).toMatchObject({
        operations: ['ack-remittance', 'find-member-v2'],
        leftOut: [],
      });
      expect(await statusOf(service, first)).toMatchObject({ status: 'valid' });
      expect(await statusOf(service, second)).toMatchObject({ status: 'valid' });
      // Unticked again: the next run omits the changes once more.
      expect(await partner.post(`${product}/changes`, {}, product)).toMatchObject({ status: 303 });
      expect((await partner.get(product)).text).toContain('<p id="allow-changes" data-allow-changes="no">');
    } finally {
      await own.close();
    }
  }, 300_000);

  test('the operator revokes: a partner is answered 404, a form without its token refused; then verify-report says revoked', async () => {
    const revoke = `/certificates/${certificate}/revoke`;
    expect((await partner.post(revoke, {}, `/certificates/${certificate}`)).status).toBe(404);
    expect((await new Person(service.url!).request('POST', revoke, {})).status).toBe(401);
    const noToken = await operator.request('POST', revoke, {});
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('CSRF token');
    expect(await (await fetch(`${service.url}/certificates/${certificate}.json`)).json()).toMatchObject({
      status: 'valid',
    });
    const page = await operator.get(`/certificates/${certificate}`);
    expect(page.text).toMatch(/<button id="revoke">/);
    expect(
      (await operator.post('/certificates/no-such-certificate/revoke', {}, `/certificates/${certificate}`)).status,
    ).toBe(404);
    // A reason and the confirmation are asked for: without either, nothing is revoked.
    const noReason = await operator.post(revoke, { confirm: 'revoke' }, `/certificates/${certificate}`);
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('Expected a reason for the revocation');
    const unconfirmed = await operator.post(revoke, { reason: 'withdrawn' }, `/certificates/${certificate}`);
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.text).toContain('Expected the box confirming the revocation ticked');
    const revoked = await operator.post(
      revoke,
      { reason: 'The partner withdrew the product.', confirm: 'revoke' },
      `/certificates/${certificate}`,
    );
    expect(revoked).toMatchObject({ status: 303, location: `/certificates/${certificate}` });
    const after = await new Person(service.url!).get(`/certificates/${certificate}`);
    expect(after.text).toContain('<strong id="certificate-status">revoked</strong>');
    expect(after.text).toContain('<span id="revocation-reason">The partner withdrew the product.</span>');
    expect((await operator.get(`/certificates/${certificate}`)).text).not.toContain('id="revoke"');
    expect(await (await fetch(`${service.url}/certificates/${certificate}.json`)).json()).toMatchObject({
      status: 'revoked',
    });
    expect((await partner.get(product)).text).toContain('class="certificate-revoked">revoked<');
    const r = await runInProcess(['verify-report', signedDir, '--key', jwksUrl]);
    expect(r.stdout).toContain(`certificate ${certificate}: REVOKED (${service.url}/certificates/${certificate}.json)`);
    expect(lastLine(r.stdout)).toBe(
      `CERTIFICATE NOT VALID: ${signedDir} is as ${service.url} signed it, but certificate ${certificate} is no longer valid`,
    );
    expect(r.code).toBe(1);
  }, 60_000);
});

test('a certificate needs a conformant verdict and enough judged; the reason is one line', () => {
  const settings = { minimumCoverage: 0.9, validityDays: 365 };
  expect(certificateDecision({ verdict: 'conformant', coverage_judged: 45, coverage_in_scope: 45 }, settings)).toEqual({
    earned: true,
  });
  expect(certificateDecision({ verdict: 'inconclusive', coverage_judged: 1, coverage_in_scope: 45 }, settings)).toEqual(
    {
      earned: false,
      reason: 'the run is not conformant (verdict inconclusive)',
    },
  );
  // A pact check is conformant under a minimum of its own (0): it judged too little to certify.
  expect(certificateDecision({ verdict: 'conformant', coverage_judged: 36, coverage_in_scope: 126 }, settings)).toEqual(
    {
      earned: false,
      reason: 'coverage 28.5% (36/126) is below the minimum of 90%',
    },
  );
  expect(certificateDecision({ verdict: 'conformant', coverage_judged: 0, coverage_in_scope: 0 }, settings)).toEqual({
    earned: false,
    reason: 'the run judged no testable MUST requirement',
  });
});

describe('what a certificate certifies', () => {
  const operation = (id: string, verdict: 'conformant' | 'inconclusive' = 'conformant') => ({
    id,
    document: 'D1' as const,
    section: '4',
    summary: id,
    counts: { pass: 1, fail: 0, warn: 0, skip: 0, omit: 0, error: 0 },
    verdict,
  });
  const coverage = (judged: number, inScope: number, leftOut: Record<string, number> = {}): MustCoverage => ({
    judged,
    inScope,
    notJudged: inScope > judged ? { 'fixture not configured': inScope - judged } : {},
    leftOut,
  });
  const results = {
    operations: [
      operation('find-member-v2'),
      operation('ack-remittance'),
      operation('list-pending-remittances'),
      operation('search-address'),
      operation('get-remittance-details'),
      operation('create-patient', 'inconclusive'),
    ],
    coverage: {
      minimum: 0.9,
      overall: coverage(70, 72),
      operations: {
        'find-member-v2': coverage(53, 53),
        // Judged in part and omitted in part: never certified.
        'ack-remittance': coverage(4, 4, { 'needs --allow-destructive': 11 }),
        'list-pending-remittances': coverage(0, 0, { 'operation omitted by the config': 20 }),
        'search-address': coverage(0, 3),
        'get-remittance-details': coverage(10, 10, { 'a feature the config says its credentials lack': 2 }),
        'create-patient': coverage(2, 6),
      },
    },
  };

  test('an operation is certified when conformant, judged and nothing of it omitted for want of changes', () => {
    expect(certifiedOperations(results)).toEqual({
      documents: ['D1'],
      operations: ['find-member-v2', 'get-remittance-details'],
      leftOut: [
        { operation: 'ack-remittance', reason: LEFT_OUT_REASONS.noChanges },
        { operation: 'create-patient', reason: 'not judged' },
        { operation: 'list-pending-remittances', reason: 'not in scope' },
        { operation: 'search-address', reason: 'not judged' },
      ],
    });
  });

  test('no operation certified: no certificate, and the one line names what was left out', () => {
    const settings = { minimumCoverage: 0.9, validityDays: 365 };
    const run = { verdict: 'conformant', coverage_judged: 4, coverage_in_scope: 4 };
    const onlyAck = {
      operations: [operation('ack-remittance')],
      coverage: {
        ...results.coverage,
        operations: { 'ack-remittance': coverage(4, 4, { 'needs --allow-destructive': 11 }) },
      },
    };
    expect(certificateDecision(run, settings, onlyAck)).toEqual({
      earned: false,
      reason: 'no operation can be certified: ack-remittance (omitted: the product did not allow changes)',
    });
    expect(certificateDecision(run, settings, results)).toEqual({ earned: true });
  });

  test('a status: revoked first, then superseded, then expired', () => {
    const [now, past, future] = [
      new Date('2026-06-01T00:00:00Z'),
      '2026-01-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ];
    const row = (revoked_at: string | null, superseded_at: string | null, expires_at: string) => ({
      revoked_at,
      superseded_at,
      expires_at,
    });
    expect(certificateStatus(row(past, past, past), now)).toBe('revoked');
    expect(certificateStatus(row(null, past, past), now)).toBe('superseded');
    expect(certificateStatus(row(null, null, past), now)).toBe('expired');
    expect(certificateStatus(row(null, null, future), now)).toBe('valid');
  });

  test('one scope: the same kind, certified operations and operations left out (whatever the reason)', () => {
    const scope: CertificateScope = {
      kind: 'server',
      documents: ['D1'],
      operations: ['find-member-v2'],
      leftOut: [{ operation: 'ack-remittance', reason: LEFT_OUT_REASONS.noChanges }],
    };
    expect(sameScope(scope, { ...scope, leftOut: [{ operation: 'ack-remittance', reason: 'not judged' }] })).toBe(true);
    expect(sameScope(scope, { ...scope, kind: 'client' })).toBe(false);
    expect(sameScope(scope, { ...scope, leftOut: [] })).toBe(false);
    expect(sameScope(scope, { ...scope, operations: ['ack-remittance', 'find-member-v2'], leftOut: [] })).toBe(false);
  });
});

describe('the signing key', () => {
  test('a replaced key stays published with --retired-keys: what it signed still verifies, its certificate valid; without it, an unknown signer', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-rotation-'));
    const [old, current] = [
      await generateSigningKeyPair('operator-2025'),
      await generateSigningKeyPair('operator-2026'),
    ];
    const environment = (pem: string) => ({
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: '5a'.repeat(32),
      CONFORMANCE_SERVICE_SIGNING_KEY: pem,
    });
    // Signed and certified under the old key.
    const before = await serviceOn('sqlite', { dataDir, environment: environment(old.privatePem) });
    let folder: string;
    try {
      const operator = new Person(before.url!);
      await operator.signIn(OPERATOR.email, OPERATOR.password);
      const partner = await partnerOf(before, operator, 'Rotation');
      const product = (
        await partner.post('/products', { name: 'Rotated', version: '1', baseUrl: clean.url, only: ONLY })
      ).location!;
      folder = await downloadSigned(partner, await runToEnd(before, partner, product));
    } finally {
      await before.close();
    }
    // The same service, its key replaced: the old one published as retired, from now on.
    const retiredFile = join(mkdtempSync(join(tmpdir(), 'retired-set-')), 'jwks.json');
    writeFileSync(retiredFile, JSON.stringify(old.jwks));
    // A retired key says when it stopped signing; without that, the set is refused.
    await expect(serviceOn('sqlite', { retiredKeysFile: retiredFile })).rejects.toThrow(
      `Expected keys[0] (operator-2025) of --retired-keys ${retiredFile} to say when it stopped signing ("notAfter"): conformance keys retire ${retiredFile} writes it`,
    );
    const retiredAt = new Date();
    const retire = await runInProcess(['keys', 'retire', retiredFile, '--not-after', retiredAt.toISOString()]);
    expect(retire.stdout).toBe(
      `${retiredFile}: operator-2025 retired, not after ${retiredAt.toISOString()} (give the file as the service's --retired-keys)\n`,
    );
    expect(retire.code).toBe(0);
    // The old key signs a copy after its retirement (a leaked or forgotten key): not the service's.
    const late = join(mkdtempSync(join(tmpdir(), 'signed-late-')), 'report');
    cpSync(folder, late, { recursive: true });
    await new Promise((r) => setTimeout(r, 5));
    const oldKeyFile = join(mkdtempSync(join(tmpdir(), 'old-key-')), 'key.pem');
    writeFileSync(oldKeyFile, old.privatePem, { mode: 0o600 });
    const signer = (JSON.parse(readFileSync(join(folder, 'signature.json'), 'utf8')) as { signer: string }).signer;
    const resigned = await runInProcess(['keys', 'sign', late, '--key', oldKeyFile, '--signer', signer]);
    expect(resigned.code, resigned.stderr).toBe(0);
    const without = await serviceOn('sqlite', { dataDir, environment: environment(current.privatePem) });
    try {
      const unknown = await runInProcess(['verify-report', folder, '--key', `${without.url}/.well-known/jwks.json`]);
      expect(lastLine(unknown.stdout)).toMatch(/^UNKNOWN SIGNER: .* \(signature\.jws names key operator-2025\)$/);
    } finally {
      await without.close();
    }
    const after = await serviceOn('sqlite', {
      dataDir,
      environment: environment(current.privatePem),
      retiredKeysFile: retiredFile,
    });
    try {
      const jwks = `${after.url}/.well-known/jwks.json`;
      const published = (await (await fetch(jwks)).json()) as JSONWebKeySet;
      expect(published.keys.map((k) => k.kid)).toEqual(['operator-2026', 'operator-2025']);
      const verified = await runInProcess(['verify-report', folder, '--key', jwks]);
      expect(verified.stdout).toContain('(key operator-2025, EdDSA; checked with the key set at ');
      expect(verified.stdout).toMatch(/certificate [\w-]+: VALID/);
      expect(lastLine(verified.stdout)).toMatch(/^SIGNED AND INTACT: /);
      expect(verified.code).toBe(0);
      expect(published.keys[1]).toMatchObject({ kid: 'operator-2025', notAfter: retiredAt.toISOString() });
      const refused = await runInProcess(['verify-report', late, '--key', jwks]);
      expect(refused.stdout).toContain(
        `signature: unknown signer: key operator-2025 was retired at ${retiredAt.toISOString()} and signs nothing after`,
      );
      expect(lastLine(refused.stdout)).toMatch(/^UNKNOWN SIGNER: /);
      expect(refused.code).toBe(1);
    } finally {
      await after.close();
    }
    // A retired set is public keys only.
    const leaking = join(mkdtempSync(join(tmpdir(), 'retired-set-')), 'jwks.json');
    writeFileSync(leaking, JSON.stringify({ keys: [{ ...old.jwks.keys[0], d: 'private' }] }));
    await expect(serviceOn('sqlite', { retiredKeysFile: leaking })).rejects.toThrow(
      /^--retired-keys .*jwks\.json holds a private key \(keys\[0\]\.d\): publish public keys only/,
    );
  }, 120_000);

  test('from CONFORMANCE_SERVICE_SIGNING_KEY or --signing-key; PostgreSQL started by the command requires one', async () => {
    const pair = await generateSigningKeyPair('operator-2026');
    const fromEnvironment = await serviceOn('sqlite', {
      environment: {
        CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
        CONFORMANCE_SERVICE_SIGNING_KEY: pair.privatePem,
      },
    });
    try {
      expect(await (await fetch(`${fromEnvironment.url}/.well-known/jwks.json`)).json()).toEqual(pair.jwks);
    } finally {
      await fromEnvironment.close();
    }
    const file = join(mkdtempSync(join(tmpdir(), 'signing-key-')), 'key.pem');
    writeFileSync(file, pair.privatePem, { mode: 0o600 });
    const fromFile = await serviceOn('sqlite', { signingKeyFile: file });
    try {
      expect(fromFile.ctx.signingKey.kid).toBe('operator-2026');
    } finally {
      await fromFile.close();
    }
    await expect(serviceOn('sqlite', { signingKeyFile: join(tmpdir(), 'no-such-key.pem') })).rejects.toThrow(
      /^--signing-key .*no-such-key\.pem cannot be read: ENOENT$/,
    );
    await expect(
      serviceOn('sqlite', { environment: { CONFORMANCE_SERVICE_SIGNING_KEY: 'not a key' } }),
    ).rejects.toThrow(
      'Expected the PEM text of an Ed25519 private key in CONFORMANCE_SERVICE_SIGNING_KEY, received something else (a key file goes with --signing-key FILE)',
    );
    if (PG) {
      const refused = await serviceOn('postgres', { signingKeyRequired: true }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ServiceKeyProblem);
      expect((refused as Error).message).toBe(
        '--signing-key FILE or CONFORMANCE_SERVICE_SIGNING_KEY must be given with --database-url (every machine of the service signs with the same key; conformance keys generate makes one)',
      );
    }
  }, 60_000);
});
