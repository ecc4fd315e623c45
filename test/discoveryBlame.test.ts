/**
 * Blame lands where it belongs (issue 30, item 5): a discovery document answered HTTP 200 with a
 * JSON media type whose body does not parse (cut short) is the target's failure at the right
 * address: the run judges the operations it addresses as failed (exit 1), it is not a config
 * problem (exit 2). A web page at the configured address stays a config problem (exit 2).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readResults, reportDir, runCli } from './support/cli.ts';

let server: Server;
let url = '';
let body: { type: string; text: string } = { type: 'application/json', text: '' };
/** Nothing at the clearing document's documented address `{claims_url}/.well-known/api-configuration`. */
let claimsUnpublished = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (claimsUnpublished && req.url === '/claims/.well-known/api-configuration') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    if ((req.url ?? '').endsWith('/.well-known/api-configuration')) {
      res.writeHead(200, { 'content-type': body.type });
      res.end(body.text);
      return;
    }
    if (req.url === '/oauth/token') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"access_token":"t-1","token_type":"Bearer","expires_in":3600}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
});

describe('a discovery document that does not parse', () => {
  test('as JSON cut short: the target fails on the operations it addresses, exit 1', async () => {
    body = { type: 'application/json; charset=utf-8', text: '{"find_member_endpoint": "/api/mem' };
    const dir = reportDir();
    const r = await runCli(['run', '--target', url, '--only', 'find-member-v2', '--report-dir', dir, '--quiet']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/check config/);
    const failed = readResults(dir).results.filter((x) => x.status === 'fail' && x.level === 'MUST');
    expect(failed.map((x) => [x.operation, x.check])).toContainEqual(['find-member-v2', 'discovery-key-present']);
    expect(failed.find((x) => x.check === 'discovery-key-present')?.message).toMatch(/does not parse/);
  });

  test('as a web page: the configured address is wrong, a config problem, exit 2 in one line', async () => {
    body = { type: 'text/html', text: '<html>home</html>' };
    const r = await runCli(['run', '--target', url, '--only', 'find-member-v2', '--report-dir', reportDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/is not JSON \(HTTP 200, text\/html\): check config/);
  });
});

describe('a discovery document whose address the documents fix (D1 1: `{claims_url}/.well-known/api-configuration`)', () => {
  test('nothing there: the target fails on the operations it addresses citing D1-1-09, exit 1', async () => {
    claimsUnpublished = true;
    body = { type: 'application/json', text: '{"get_claim_endpoint": "/claims/claim"}' };
    try {
      const dir = reportDir();
      const r = await runCli(['run', '--target', url, '--only', 'search-bills', '--report-dir', dir, '--quiet']);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const failed = readResults(dir).results.filter((x) => x.status === 'fail' && x.level === 'MUST');
      const discovery = failed.find((x) => x.operation === 'search-bills' && x.check === 'discovery-key-present');
      expect(discovery?.requirements).toContain('D1-1-09');
      expect(discovery?.message).toMatch(/received HTTP 404; were \{claims_url\} another address, check config/);
    } finally {
      claimsUnpublished = false;
    }
  });
});
