/**
 * The sandbox's demo config: the config a run uses when none is given (`conformance start`, or
 * `run` without `--config`). The sandbox owns it because it describes the sandbox: its discovery
 * layout, its seed data as fixtures, its demo clients and users. The secrets it names by
 * environment variable fall back to the sandbox's public demo credentials, taken from the seed
 * data itself (server/fixtures/), so the file and the data cannot drift (server/demoConfig.test.ts).
 */
import { fileURLToPath } from 'node:url';
import { USERS } from './fixtures/accounts.ts';
import { CLIENTS } from './fixtures/clients.ts';

/** Path of the demo config file (a normal config file, `$schema` and all). */
export const DEMO_CONFIG_FILE = fileURLToPath(new URL('./demo-config.json', import.meta.url));

function client(clientId: string): { clientId: string; clientSecret: string } {
  const c = CLIENTS.find((k) => k.clientId === clientId);
  if (!c) throw new Error(`The sandbox has no demo client ${clientId}`);
  return c;
}

function user(username: string): { username: string; password: string } {
  const u = USERS.find((k) => k.username === username);
  if (!u) throw new Error(`The sandbox has no demo user ${username}`);
  return u;
}

/** What the demo config's environment variables fall back to when unset: public demo values. */
export const DEMO_ENVIRONMENT: Readonly<Record<string, string>> = (() => {
  const main = client('sandbox-client');
  const noAccount = client('sandbox-noaccount');
  const inactive = client('sandbox-inactive');
  const alice = user('alice');
  const bob = user('bob');
  return {
    CONFORMANCE_CLIENT_ID: main.clientId,
    CONFORMANCE_CLIENT_SECRET: main.clientSecret,
    CONFORMANCE_USER_NAME: alice.username,
    CONFORMANCE_USER_PASSWORD: alice.password,
    CONFORMANCE_USER2_NAME: bob.username,
    CONFORMANCE_USER2_PASSWORD: bob.password,
    CONFORMANCE_NOACCOUNT_CLIENT_ID: noAccount.clientId,
    CONFORMANCE_NOACCOUNT_CLIENT_SECRET: noAccount.clientSecret,
    CONFORMANCE_INACTIVE_CLIENT_ID: inactive.clientId,
    CONFORMANCE_INACTIVE_CLIENT_SECRET: inactive.clientSecret,
  };
})();
