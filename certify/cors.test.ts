/**
 * A certification workspace answers a browser (certify/cors.ts): a CORS preflight at a served
 * address is answered 204 with the CORS headers, an answer to a request with Origin carries
 * Access-Control-Allow-Origin, and a preflight outside the workspace's addresses keeps its 404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkspace, type Workspace } from './workspace.ts';

const ORIGIN = 'https://app.example';
let ws: Workspace;
let auth: string;
beforeAll(async () => {
  ws = await startWorkspace({ scenario: 'token-revoke-and-logout' });
  auth = String(((await (await fetch(ws.config.discovery.auth)).json()) as { auth_url: string }).auth_url);
});
afterAll(() => ws?.close());

const preflight = (url: string, method: string, headers?: string) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: {
      Origin: ORIGIN,
      'Access-Control-Request-Method': method,
      ...(headers ? { 'Access-Control-Request-Headers': headers } : {}),
    },
  });

describe('the workspace answers a browser', () => {
  test('a preflight at the discovered logout address is answered 204 with the CORS headers', async () => {
    const r = await preflight(`${auth}/logout`, 'GET', 'authorization');
    expect(r.status).toBe(204);
    expect(await r.text()).toBe('');
    expect(r.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(r.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(r.headers.get('access-control-allow-headers')).toBe('authorization');
    expect(r.headers.get('access-control-max-age')).toBe('600');
  });

  test('a preflight naming no headers is allowed the documented ones', async () => {
    const r = await preflight(`${auth}/revoke`, 'POST');
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(r.headers.get('access-control-allow-headers')).toMatch(/Authorization.*SU-SiteId.*ClientId, secret/);
  });

  test('an answer to a request with Origin lets that origin read it', async () => {
    const r = await fetch(ws.config.discovery.auth, { headers: { Origin: ORIGIN } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const plain = await fetch(ws.config.discovery.auth);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('a preflight outside the discovered addresses, or an OPTIONS that is no preflight, is not answered so', async () => {
    const outside = await preflight(`${new URL(auth).origin}/auth/logout`, 'GET');
    expect(outside.status).toBe(404);
    const unknown = await preflight(`${auth}/no-such-operation`, 'GET');
    expect(unknown.status).toBe(404);
    const bare = await fetch(`${auth}/logout`, { method: 'OPTIONS' });
    expect(bare.status).toBe(405);
  });
});
