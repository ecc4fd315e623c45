import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox } from './http.ts';
import { TestSandbox, errorCode } from './testSupport.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

describe('startSandbox', () => {
  test('listens on 127.0.0.1 and a free port by default', () => {
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('listens on the given port, and close() frees it', async () => {
    const port = await freePort();
    const s = await startSandbox({ port });
    expect(s.url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${s.url}/_sandbox/health`)).status).toBe(200);
    await s.close();
    await expect(fetch(`${s.url}/_sandbox/health`)).rejects.toThrow();
  });

  test('faults are reported by the health route', async () => {
    const s = await startSandbox({ faults: ['ack-returns-204', 'count-ignored'] });
    try {
      expect(await (await fetch(`${s.url}/_sandbox/health`)).json()).toEqual({
        status: 'ok',
        faults: ['ack-returns-204', 'count-ignored'],
      });
    } finally {
      await s.close();
    }
  });
});

describe('the adapter leaves content decisions to the router', () => {
  const findMember = async (contentType: string | undefined, body: string) =>
    sb.request('POST', '/membership/find-member', {
      headers: {
        authorization: `Bearer ${await sb.token()}`,
        'su-siteid': 'SITE001',
        'svc-api-version': '2',
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
      },
      body,
    });

  test.each([
    'application/json',
    'application/xml',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/octet-stream',
  ])('Content-Type %s is 400 MSG_CANT_PARSE_CONTENT, never 415', async (contentType) => {
    const a = await findMember(contentType, contentType === 'application/json' ? '{not json' : 'x=1');
    expect(a.status).toBe(400);
    expect(errorCode(a.json)).toBe('MSG_CANT_PARSE_CONTENT');
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  test('a body without Content-Type is 400 MSG_CANT_PARSE_CONTENT', async () => {
    const res = await fetch(`${sb.url}/membership/find-member`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await sb.token()}`, 'su-siteid': 'SITE001', 'svc-api-version': '2' },
      body: new Uint8Array(Buffer.from('insurerIdentifier=ppp')),
    });
    expect(res.status).toBe(400);
    expect(errorCode(await res.json())).toBe('MSG_CANT_PARSE_CONTENT');
  });

  test('an empty form body reaches the handler (missing fields)', async () => {
    const a = await findMember('application/x-www-form-urlencoded', '');
    expect(a.status).toBe(400);
    expect(errorCode(a.json)).toBe('MSG_MISSING_MANDATORY_PARAM');
  });

  test("an oversized body answers an OperationOutcome, not fastify's error JSON", async () => {
    const a = await findMember('application/x-www-form-urlencoded', `lastName=${'x'.repeat(1_100_000)}`);
    expect(a.status).toBe(413);
    expect((a.json as { resourceType: string }).resourceType).toBe('OperationOutcome');
  });

  test('HEAD is served like GET without a body', async () => {
    const res = await fetch(`${sb.url}/claims/claimresponse/$batch`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${await sb.token()}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});
