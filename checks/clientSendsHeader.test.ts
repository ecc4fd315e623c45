import { describe, expect, it } from 'vitest';
import type { ClientRequest } from '../core/clientRequest.ts';
import { operation } from '../spec/operations.ts';
import { clientSendsHeader } from './clientSendsHeader.ts';

const request = (headers: Record<string, string>, body?: string): ClientRequest => ({
  operation: operation('find-member-v2'),
  method: 'POST',
  rawPath: '/membership/find-member',
  rawQuery: '',
  headers,
  ...(body === undefined ? {} : { body }),
});

describe('clientSendsHeader', () => {
  const version = clientSendsHeader({ name: 'SVC-API-Version', value: '2', enforced: true });
  const site = clientSendsHeader({ name: 'SU-SiteId', value: '{siteId}', enforced: true });
  const bearer = clientSendsHeader({ name: 'Authorization', value: 'Bearer {token}', enforced: true });
  const form = clientSendsHeader({ name: 'Content-Type', value: 'application/x-www-form-urlencoded', enforced: false });

  it('passes the documented value, any filled-in value, any case of the scheme, a charset parameter', () => {
    expect(version.run(request({ 'svc-api-version': '2' })).outcome).toBe('pass');
    expect(site.run(request({ 'su-siteid': 'SITE001' })).outcome).toBe('pass');
    expect(bearer.run(request({ authorization: 'bearer abc' })).outcome).toBe('pass');
    const withCharset = request({ 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' }, 'a=1');
    expect(form.run(withCharset).outcome).toBe('pass');
  });

  it('fails a missing header and a wrong fixed value, saying what was expected', () => {
    expect(site.run(request({})).message).toBe('Expected the header SU-SiteId: a value, received none');
    const v1 = version.run(request({ 'svc-api-version': '1' }));
    expect(v1.outcome).toBe('fail');
    expect(v1.message).toBe('Expected SVC-API-Version: 2, received "1"');
    expect(bearer.run(request({ authorization: 'Basic abc' })).outcome).toBe('fail');
    expect(form.run(request({ 'content-type': 'application/json' }, '{}')).outcome).toBe('fail');
  });

  it('does not ask for a Content-Type on a request without content', () => {
    expect(form.run(request({})).outcome).toBe('skip');
  });
});
