/**
 * The Pact verifier forwards each interaction to the target through pact-js's own proxy
 * (http-proxy over Node's https module, a fresh agent per request), not through the run's HTTP
 * client, and pact-js 16 offers no way to hand that forwarding a CA, a client certificate or a
 * proxy of ours. Its child process (pacts/verifyInChild.ts) is therefore started with the run's
 * connection settings in the places Node and pact-js read them: the trusted CA (`http.caFile`) in
 * NODE_EXTRA_CA_CERTS, the proxy chosen for the target (`http.proxy`, else HTTPS_PROXY /
 * HTTP_PROXY, unless NO_PROXY exempts it) in HTTPS_PROXY, the only variable pact-js reads.
 * Certificates are checked (`validateSSL`). A client certificate (mTLS) cannot be presented there:
 * the verification refuses in one line rather than fail every interaction.
 */
import type { HttpOptions } from '../core/http.ts';

export class ForwardingProblem extends Error {}

/** Whether NO_PROXY (names, `.domain` suffixes, `host:port`, `*`) exempts the address. */
export function exemptFromProxy(noProxy: string, url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[\s,]+/)
    .filter((entry) => entry !== '')
    .some((raw) => {
      const entry = raw.toLowerCase();
      if (entry === '*') return true;
      const bracket = entry.startsWith('[') ? entry.indexOf(']') : -1;
      const name = bracket > 0 ? entry.slice(1, bracket) : entry.split(':')[0];
      const entryPort = bracket > 0 ? entry.slice(bracket + 2) || undefined : entry.split(':')[1];
      if (entryPort !== undefined && entryPort !== port) return false;
      const bare = name.replace(/^\*?\./, '');
      return host === bare || host.endsWith(`.${bare}`);
    });
}

/** The environment of the verifier's child process: `environment` with the run's connection settings for the target. */
export function forwardingEnvironment(
  http: Pick<HttpOptions, 'tls' | 'proxy'>,
  target: URL,
  environment: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  if (http.tls?.client)
    throw new ForwardingProblem(
      `pact verify cannot present the client certificate of http.clientCertFile (${http.tls.client.certFile}): the Pact verifier's forwarding (pact-js 16) has no setting for one; verify at an address of the target that does not demand it`,
    );
  const out: NodeJS.ProcessEnv = { ...environment };
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'])
    delete out[name];
  if (http.tls?.ca) out.NODE_EXTRA_CA_CERTS = http.tls.ca.file;
  const proxy = target.protocol === 'https:' ? http.proxy?.https : http.proxy?.http;
  if (proxy && !exemptFromProxy(http.proxy?.noProxy ?? '', target)) out.HTTPS_PROXY = proxy.url;
  return out;
}
