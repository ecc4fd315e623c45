/**
 * Signed reports end to end (issue 25 items 6 and 7): a real run of the command against the
 * sandbox, its folder signed with a key `conformance keys generate` made, and `verify-report
 * --key` with a key file and with a key set served over real HTTP (with the certificate status
 * beside it): signed and intact, tampered (also re-sealed and rebuilt, which the digest alone
 * cannot see), signed by another key, and a local unsigned run.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResults } from '../core/results.ts';
import { writeReports } from '../reports/writeReports.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { readResults, runCli, runInProcess } from './support/cli.ts';

const root = mkdtempSync(join(tmpdir(), 'signing-test-'));
/** The run's folder as the command wrote it (never signed). */
const local = join(root, 'local');
const operatorKeys = join(root, 'operator-keys');
const otherKeys = join(root, 'other-keys');
let sandbox: RunningSandbox;
let jwksServer: Server;
let service: string;
/** What the tiny service answers for a certificate's status. */
const certificateStatus: Record<string, string> = { 'C-valid': 'valid', 'C-revoked': 'revoked' };

/** A copy of the run's folder, signed (keys sign) with the given key. */
async function signedCopy(name: string, keyDir = operatorKeys, extra: string[] = []): Promise<string> {
  const dir = join(root, name);
  cpSync(local, dir, { recursive: true });
  const r = await runInProcess([
    'keys',
    'sign',
    dir,
    '--key',
    join(keyDir, 'signing-key.pem'),
    '--signer',
    'Operator Ltd',
    ...extra,
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return dir;
}

const lastLine = (s: string) => s.trim().split('\n').at(-1);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const run = await runCli(
    ['run', '--target', sandbox.url, '--only', 'find-member-v1', '--runs', '1', '--report-dir', local],
    { timeoutMs: 150_000 },
  );
  expect(run.stdout).toMatch(/^Verdict: /m);
  expect(readResults(local).integrity?.digest).toMatch(/^[0-9a-f]{64}$/);
  const generated = await runCli(['keys', 'generate', '--out', operatorKeys, '--kid', 'operator-2026']);
  expect(generated.code).toBe(0);
  expect(generated.stdout).toBe(
    `Key operator-2026: private key ${join(operatorKeys, 'signing-key.pem')} (mode 0600, keep it secret), public key set ${join(operatorKeys, 'jwks.json')}\n`,
  );
  expect((await runInProcess(['keys', 'generate', '--out', otherKeys])).code).toBe(0);
  // A certification service as verify-report meets it: its key set and its certificates' status.
  const jwks = readFileSync(join(operatorKeys, 'jwks.json'), 'utf8');
  jwksServer = createServer((req, res) => {
    const status = /^\/ca\/certificates\/([\w-]+)\.json$/.exec(req.url ?? '')?.[1];
    if (req.url === '/ca/.well-known/jwks.json') res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    else if (status && certificateStatus[status])
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: certificateStatus[status] }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  service = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/ca`;
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  jwksServer?.closeAllConnections();
  if (jwksServer) await new Promise((resolve) => jwksServer.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('conformance keys', () => {
  test('generate writes the private key readable by its owner alone and the public key set', () => {
    expect(statSync(join(operatorKeys, 'signing-key.pem')).mode & 0o777).toBe(0o600);
    const jwks = JSON.parse(readFileSync(join(operatorKeys, 'jwks.json'), 'utf8')) as {
      keys: Record<string, string>[];
    };
    expect(jwks.keys).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: 'operator-2026', alg: 'EdDSA', use: 'sig' },
    ]);
  });

  test('generate never overwrites a key; bad options are one line, exit 2', async () => {
    const again = await runInProcess(['keys', 'generate', '--out', operatorKeys]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      `conformance: ${join(operatorKeys, 'signing-key.pem')} exists; a signing key is never overwritten\n`,
    );
    for (const args of [
      ['keys'],
      ['keys', 'rotate'],
      ['keys', 'generate', '--kid', 'a b', '--out', join(root, 'never')],
      ['keys', 'sign', local],
      ['keys', 'sign', local, '--key', join(root, 'no-such.pem'), '--signer', 'x'],
      ['keys', 'sign', local, '--key', join(operatorKeys, 'signing-key.pem')],
      ['keys', 'sign', local, '--key', join(operatorKeys, 'jwks.json'), '--signer', 'x'],
    ]) {
      const r = await runInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(/^conformance: /);
      expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
    }
  });

  test('sign refuses a folder that is not as its run wrote it', async () => {
    const dir = join(root, 'refused');
    cpSync(local, dir, { recursive: true });
    writeFileSync(join(dir, 'junit.xml'), 'changed');
    const r = await runInProcess([
      'keys',
      'sign',
      dir,
      '--key',
      join(operatorKeys, 'signing-key.pem'),
      '--signer',
      'x',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not as its run wrote it .* an altered folder is not signed\n$/);
  });
});

describe('conformance verify-report --key', () => {
  test('a signed, intact folder: exit 0, who signed, when and the key', async () => {
    const dir = await signedCopy('signed');
    const summary = JSON.parse(readFileSync(join(dir, 'signature.json'), 'utf8')) as Record<string, unknown>;
    expect(summary).toMatchObject({ kid: 'operator-2026', signer: 'Operator Ltd', target: sandbox.url });
    const r = await runCli(['verify-report', dir, '--key', join(operatorKeys, 'jwks.json')]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      new RegExp(
        `^signature: verified: signed by Operator Ltd at ${summary.signedAt} \\(key operator-2026, EdDSA; checked with .*jwks\\.json\\)$`,
        'm',
      ),
    );
    expect(lastLine(r.stdout)).toBe(`SIGNED AND INTACT: ${dir} is as Operator Ltd signed it`);
    expect(r.code).toBe(0);
    // Without a key the folder is intact and its signature is said to be unchecked.
    const bare = await runInProcess(['verify-report', dir]);
    expect(bare.stdout).toContain(
      'signature: signature.jws present, not checked (give --key FILE|URL to check who signed)',
    );
    expect(bare.code).toBe(0);
  });

  test('a tampered results.json: exit 1, altered', async () => {
    const dir = await signedCopy('tampered');
    const file = join(dir, 'results.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(`"target": "${sandbox.url}"`, '"target": "https://partner.test"'),
    );
    const r = await runInProcess(['verify-report', dir, '--key', join(operatorKeys, 'jwks.json')]);
    expect(r.stdout).toMatch(/^results\.json: ALTERED/m);
    expect(r.stdout).toMatch(
      /^signature: ALTERED: results\.json: the signature covers SHA-256 [0-9a-f]{64}, its content has /m,
    );
    expect(lastLine(r.stdout)).toBe(`ALTERED: ${dir} was changed after Operator Ltd signed it`);
    expect(r.code).toBe(1);
  });

  test('text edits the parsed content hides are alterations: a member given twice, a number out of range (exit 1)', async () => {
    // Results holding a null (a member no reader of this version knows), sealed as a run writes them.
    const withNull = join(root, 'with-null');
    const results = readResults(local);
    await writeReports({ ...results, note: null } as never, withNull);
    expect((await runInProcess(['verify-report', withNull])).code).toBe(0);
    const edits: [string, string, (t: string) => string][] = [
      // A reader that keeps the first of two members sees another verdict; JSON.parse keeps the last.
      ['a leading duplicate member', local, (t) => t.replace('{', '{\n  "verdict": "conformant",')],
      // 1e999 is read as Infinity, which canonical JSON writes as null.
      ['1e999 for null', withNull, (t) => t.replace('"note": null', '"note": 1e999')],
    ];
    for (const [name, from, edit] of edits) {
      const dir = join(root, `exact-${name.replace(/\W+/g, '-')}`);
      cpSync(from, dir, { recursive: true });
      const text = readFileSync(join(dir, 'results.json'), 'utf8');
      const edited = edit(text);
      expect(edited, name).not.toBe(text);
      writeFileSync(join(dir, 'results.json'), edited);
      for (const args of [[]]) {
        const r = await runInProcess(['verify-report', dir, ...args]);
        expect(r.stdout, `${name}: ${r.stderr}`).toMatch(/^results\.json: intact \(SHA-256/m);
        expect(r.stdout, name).toMatch(
          /^results\.json: ALTERED \(its text is not what the run wrote for this content/m,
        );
        expect(lastLine(r.stdout), name).toMatch(/^ALTERED: /);
        expect(r.code, name).toBe(1);
      }
    }
  });

  test('results re-sealed and the report rebuilt: the digest holds, the signature does not', async () => {
    const dir = await signedCopy('resealed');
    const forged: RunResults = { ...readResults(dir), target: 'https://partner.test' };
    await writeReports(forged, dir);
    expect((await runInProcess(['verify-report', dir])).code).toBe(0);
    const r = await runInProcess(['verify-report', dir, '--key', join(operatorKeys, 'jwks.json')]);
    expect(r.stdout).toMatch(/^results\.json: intact/m);
    expect(r.stdout).toMatch(/^signature: ALTERED: results\.json: the signature covers/m);
    expect(r.stdout).toMatch(/^signature: ALTERED: report\.html: differs from the file the signature covers$/m);
    expect(lastLine(r.stdout)).toBe(`ALTERED: ${dir} was changed after Operator Ltd signed it`);
    expect(r.code).toBe(1);
  });

  test('an edited signature.json: exit 1 (signature.jws is what counts)', async () => {
    const dir = await signedCopy('summary-edited');
    const file = join(dir, 'signature.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"Operator Ltd"', '"Someone Else"'));
    const r = await runInProcess(['verify-report', dir, '--key', join(operatorKeys, 'jwks.json')]);
    expect(r.stdout).toContain('signature: ALTERED: signature.json: differs from the signed statement');
    expect(r.code).toBe(1);
  });

  test('signed by another key: exit 1, unknown signer', async () => {
    const dir = await signedCopy('other-signer', otherKeys);
    const r = await runCli(['verify-report', dir, '--key', join(operatorKeys, 'jwks.json')]);
    expect(r.stdout).toMatch(/^signature: unknown signer: no key with kid [\w-]+ in the key set$/m);
    expect(lastLine(r.stdout)).toMatch(new RegExp(`^UNKNOWN SIGNER: ${dir} was not signed by .*jwks\\.json`));
    expect(r.code).toBe(1);
    // Another key under the operator's kid: the signature itself fails.
    const sameKid = await signedCopy('same-kid', otherKeys, ['--kid', 'operator-2026']);
    const s = await runInProcess(['verify-report', sameKid, '--key', join(operatorKeys, 'signing-key.pem')]);
    expect(s.stdout).toContain('signature: unknown signer: the signature does not verify with the key given');
    expect(lastLine(s.stdout)).toMatch(/^UNKNOWN SIGNER: .* \(signature\.jws names key operator-2026\)$/);
    expect(s.code).toBe(1);
  });

  test('a local run says plainly it is not signed: exit per the digest without --key, 1 with it', async () => {
    const bare = await runInProcess(['verify-report', local]);
    expect(bare.stdout).toContain('signature: not signed (a local run): no signature.jws');
    expect(lastLine(bare.stdout)).toBe(`INTACT: ${local} is as the run wrote it`);
    expect(bare.code).toBe(0);
    const keyed = await runInProcess(['verify-report', local, '--key', join(operatorKeys, 'jwks.json')]);
    expect(keyed.stdout).toContain('signature: not signed (a local run): no signature.jws');
    expect(lastLine(keyed.stdout)).toBe(`NOT SIGNED: ${local} is a local run; --key asks for a signed report`);
    expect(keyed.code).toBe(1);
  });

  test('--key URL: the key set over HTTP, and the status of the certificate the signature names', async () => {
    const valid = await signedCopy('certified', operatorKeys, ['--certificate', 'C-valid', '--run-id', 'run-17']);
    const jwksUrl = `${service}/.well-known/jwks.json`;
    const r = await runCli(['verify-report', valid, '--key', jwksUrl]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`(key operator-2026, EdDSA; checked with the key set at ${jwksUrl})`);
    expect(r.stdout).toMatch(/^signed run: run-17, /m);
    expect(r.stdout).toContain(`certificate C-valid: VALID (${service}/certificates/C-valid.json)`);
    expect(r.code).toBe(0);
    const revoked = await signedCopy('revoked', operatorKeys, ['--certificate', 'C-revoked']);
    const v = await runInProcess(['verify-report', revoked, '--key', jwksUrl]);
    expect(v.stdout).toContain('certificate C-revoked: REVOKED');
    expect(lastLine(v.stdout)).toBe(
      `CERTIFICATE NOT VALID: ${revoked} is as Operator Ltd signed it, but certificate C-revoked is no longer valid`,
    );
    expect(v.code).toBe(1);
    // The status is read only from a service's URL; a key file says where to look.
    const file = await runInProcess(['verify-report', valid, '--key', join(operatorKeys, 'jwks.json')]);
    expect(file.stdout).toContain(
      "certificate C-valid: status not checked (give the service's JWKS URL as --key to read it)",
    );
    expect(file.code).toBe(0);
    const other = await signedCopy('other-signer-url', otherKeys);
    const u = await runInProcess(['verify-report', other, '--key', jwksUrl]);
    expect(lastLine(u.stdout)).toMatch(/^UNKNOWN SIGNER: /);
    expect(u.code).toBe(1);
  });

  test('a certificate whose status cannot be read is never passed for valid: exit 3, one line saying so', async () => {
    // The service knows no such certificate (or cannot be reached): revoked or not, nobody can tell.
    const unknown = await signedCopy('status-unknown', operatorKeys, ['--certificate', 'C-withdrawn']);
    const r = await runInProcess(['verify-report', unknown, '--key', `${service}/.well-known/jwks.json`]);
    expect(r.stdout).toMatch(/^certificate C-withdrawn: status unknown: /m);
    expect(lastLine(r.stdout)).toBe(
      `STATUS UNKNOWN: ${unknown} is as Operator Ltd signed it, but whether certificate C-withdrawn is still valid (not revoked) could not be read; try again`,
    );
    expect(r.code).toBe(3);
  });

  test('the signed statement carries the certificate’s expiry: past it, not valid, even offline (exit 1)', async () => {
    const future = '2099-01-01T00:00:00.000Z';
    const current = await signedCopy('expires-later', operatorKeys, [
      '--certificate',
      'C-valid',
      '--certificate-expires',
      future,
    ]);
    const ok = await runInProcess(['verify-report', current, '--key', `${service}/.well-known/jwks.json`]);
    expect(ok.stdout).toContain(`certificate C-valid: expires at ${future} (signed statement)`);
    expect(ok.code).toBe(0);
    const past = await signedCopy('expired', operatorKeys, [
      '--certificate',
      'C-valid',
      '--certificate-expires',
      '2020-01-01T00:00:00Z',
    ]);
    for (const key of [`${service}/.well-known/jwks.json`, join(operatorKeys, 'jwks.json')]) {
      const r = await runInProcess(['verify-report', past, '--key', key]);
      expect(r.stdout).toContain('certificate C-valid: EXPIRED at 2020-01-01T00:00:00.000Z (signed statement)');
      expect(lastLine(r.stdout)).toBe(
        `CERTIFICATE NOT VALID: ${past} is as Operator Ltd signed it, but certificate C-valid is no longer valid`,
      );
      expect(r.code, key).toBe(1);
    }
    const refused = await runInProcess([
      'keys',
      'sign',
      past,
      '--key',
      join(operatorKeys, 'signing-key.pem'),
      '--signer',
      'x',
      '--certificate-expires',
      'soon',
    ]);
    expect(refused.code).toBe(2);
  });

  test('a key that cannot be read: one line, exit 2, before anything is judged', async () => {
    const dir = await signedCopy('unread-key');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    for (const [key, line] of [
      [
        join(root, 'missing.json'),
        /^conformance: --key .*missing\.json is neither a readable file nor an http\(s\) URL$/,
      ],
      [
        'ftp://127.0.0.1/jwks.json',
        /^conformance: --key ftp:\/\/127\.0\.0\.1\/jwks\.json: expected an http or https URL/,
      ],
      [
        `http://127.0.0.1:${port}/jwks.json`,
        /^conformance: cannot read the key set at http:\/\/127\.0\.0\.1:\d+\/jwks\.json: ECONNREFUSED$/,
      ],
      [`${service}/nothing.json`, /^conformance: cannot read the key set at .*\/nothing\.json: /],
      [join(dir, 'results.json'), /^conformance: .*results\.json is not a key: expected a JWK, a JWKS or a PEM file$/],
    ] as const) {
      const r = await runInProcess(['verify-report', dir, '--key', key]);
      expect(r.code, key).toBe(2);
      expect(r.stdout, key).toBe('');
      expect(r.stderr.split('\n')[0], key).toMatch(line);
    }
    // A signature that cannot be read is one line too.
    rmSync(join(dir, 'signature.jws'));
    mkdirSync(join(dir, 'signature.jws'));
    const r = await runInProcess(['verify-report', dir, '--key', join(operatorKeys, 'jwks.json')]);
    expect(r.stderr).toBe(`conformance: Cannot read ${join(dir, 'signature.jws')}: EISDIR\n`);
    expect(r.code).toBe(2);
  });
});

describe('a signer stated in the results (set before they are sealed, as the service does)', () => {
  test('the page names the signer; keys sign holds the key to it; a removed signature is an alteration', async () => {
    const dir = join(root, 'stated');
    const results: RunResults & { signedBy: object } = {
      ...readResults(local),
      signedBy: { name: 'Operator Ltd', kid: 'operator-2026', jwks: `${service}/.well-known/jwks.json` },
    };
    await writeReports(results, dir);
    const page = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(page).toMatch(/<p id="signer" class="signer" data-signer="Operator Ltd" data-kid="operator-2026">/);
    expect(page).toContain(`npx conformance verify-report DIR --key ${service}/.well-known/jwks.json`);
    expect(readFileSync(join(local, 'report.html'), 'utf8')).toContain(
      'data-signer=""><strong>Signer:</strong> none stated (a local run)',
    );
    // Another key than the one the results state is refused.
    const wrong = await runInProcess([
      'keys',
      'sign',
      dir,
      '--key',
      join(otherKeys, 'signing-key.pem'),
      '--signer',
      'Operator Ltd',
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /results\.json states the signer Operator Ltd \(key operator-2026\); expected the same/,
    );
    // Before it is signed, the folder lacks the signature its results announce.
    const unsigned = await runInProcess(['verify-report', dir]);
    expect(unsigned.stdout).toContain(
      'signature: MISSING: results.json states the signer Operator Ltd (key operator-2026) but the folder has no signature.jws',
    );
    expect(unsigned.code).toBe(1);
    const signed = await runInProcess([
      'keys',
      'sign',
      dir,
      '--key',
      join(operatorKeys, 'signing-key.pem'),
      '--signer',
      'Operator Ltd',
    ]);
    expect(signed.code).toBe(0);
    const v = await runInProcess(['verify-report', dir, '--key', `${service}/.well-known/jwks.json`]);
    expect(lastLine(v.stdout)).toBe(`SIGNED AND INTACT: ${dir} is as Operator Ltd signed it`);
    expect(v.code).toBe(0);
  });
});
