import { describe, expect, test } from 'vitest';
import { exemptFromProxy, ForwardingProblem, forwardingEnvironment } from './forwarding.ts';

const proxy = {
  https: { url: 'http://proxy.example:3128/', from: 'http.proxy' },
  http: { url: 'http://plain-proxy.example:3128/', from: 'HTTP_PROXY' },
  noProxy: '',
};

describe('exemptFromProxy reads NO_PROXY as undici does', () => {
  test.each([
    ['*', 'https://staging.example.com/', true],
    ['staging.example.com', 'https://staging.example.com/x', true],
    ['.example.com', 'https://staging.example.com/', true],
    ['example.com', 'https://staging.example.com/', true],
    ['*.example.com', 'https://staging.example.com/', true],
    ['other.com, example.org', 'https://staging.example.com/', false],
    ['staging.example.com:8443', 'https://staging.example.com:8443/', true],
    ['staging.example.com:8443', 'https://staging.example.com/', false],
    ['[::1]:9000', 'http://[::1]:9000/', true],
    ['ample.com', 'https://example.com/', false],
    ['', 'https://example.com/', false],
  ])('NO_PROXY=%j, %s: %s', (noProxy, url, exempt) => {
    expect(exemptFromProxy(noProxy, new URL(url))).toBe(exempt);
  });
});

describe("the verifier's child environment", () => {
  const environment = { PATH: '/bin', https_proxy: 'http://stale:1/', NO_PROXY: 'x', HOME: '/h' };

  test('the CA file in NODE_EXTRA_CA_CERTS; the proxy of the target, the environment ones dropped', () => {
    const env = forwardingEnvironment(
      { tls: { ca: { pem: '-----BEGIN CERTIFICATE-----', file: '/etc/ca.pem' } }, proxy },
      new URL('https://staging.example.com/'),
      environment,
    );
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/h',
      NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
      HTTPS_PROXY: 'http://proxy.example:3128/',
    });
    expect(forwardingEnvironment({ proxy }, new URL('http://staging.example.com/'), environment).HTTPS_PROXY).toBe(
      'http://plain-proxy.example:3128/',
    );
  });

  test('NO_PROXY exempting the target: no proxy; no settings: none', () => {
    const exempt = forwardingEnvironment(
      { proxy: { ...proxy, noProxy: '.example.com' } },
      new URL('https://staging.example.com/'),
      environment,
    );
    expect(exempt.HTTPS_PROXY).toBeUndefined();
    expect(forwardingEnvironment({}, new URL('https://a.example/'), environment)).toEqual({ PATH: '/bin', HOME: '/h' });
  });

  test('a client certificate: one line naming http.clientCertFile', () => {
    expect(() =>
      forwardingEnvironment(
        { tls: { client: { cert: 'c', key: 'k', certFile: '/etc/client.pem', keyFile: '/etc/client.key' } } },
        new URL('https://staging.example.com/'),
        environment,
      ),
    ).toThrow(ForwardingProblem);
    expect(() =>
      forwardingEnvironment(
        { tls: { client: { cert: 'c', key: 'k', certFile: '/etc/client.pem', keyFile: '/etc/client.key' } } },
        new URL('https://staging.example.com/'),
        environment,
      ),
    ).toThrow(/^pact verify cannot present the client certificate of http\.clientCertFile \(\/etc\/client\.pem\)/);
  });
});
