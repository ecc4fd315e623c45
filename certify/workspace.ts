/**
 * A certification workspace: a sandbox of its own for one partner's scenario, with its own base
 * address (a free port and a path of its own, `/w/<id>`, so that only what the discovery
 * documents publish reaches it), its own client credentials and a fresh copy of the seed data.
 * Every request the partner's client makes is recorded with its answer. A browser client is
 * answered its CORS preflights (certify/cors.ts).
 */
import { randomBytes } from 'node:crypto';
import { ALICE } from '../server/fixtures/accounts.ts';
import { SITE_1 } from '../server/fixtures/clients.ts';
import { SEED } from '../server/fixtures/seed.ts';
import { type RunningSandbox, type ServedExchange, startSandbox } from '../server/http.ts';
import { DISCOVERY_PATHS } from '../server/router/addresses.ts';
import type { ActiveModifiers } from '../server/router/types.ts';
import type { ServiceId } from '../spec/types.ts';
import { withCors } from './cors.ts';
import { withVersionHeaderNames } from './versionHeader.ts';

/** What the partner configures their application with. */
export interface WorkspaceConfig {
  scenario: string;
  /** Discovery document of each service. */
  discovery: Record<ServiceId, string>;
  /** OAuth token endpoint (client credentials; password grant for the patient user). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  siteId: string;
  /** The user whose token the patient and account operations take (the sandbox's demo user). */
  user: { username: string; password: string };
  /** The identity-provider sign-in of the workspace's client (token details, Document 3, 4.2). */
  idp: { name: string; redirectUri: string };
}

const IDP_REDIRECT_URI = 'https://app.example/callback';

export interface Workspace {
  config: WorkspaceConfig;
  /** Every request made to the workspace and its answer, in order. */
  readonly exchanges: readonly ServedExchange[];
  /** Called after each recorded exchange. */
  onExchange(listener: () => void): void;
  close(): Promise<void>;
}

export async function startWorkspace(opts: {
  scenario: string;
  modifiers?: ActiveModifiers;
  host?: string;
}): Promise<Workspace> {
  const id = randomBytes(6).toString('hex');
  const clientId = `cert-${id}`;
  const clientSecret = randomBytes(18).toString('base64url');
  const seed = {
    ...SEED,
    clients: [
      ...SEED.clients,
      {
        clientId,
        clientSecret,
        siteId: SITE_1,
        features: ['Advanced_Search_1_0', 'Advanced_Filtering_And_Sorting_1_0'] as const,
      },
    ],
    // The workspace's client has the demo user's identity-provider sign-in (token details, D3 4.2).
    idpSignIns: [
      ...SEED.idpSignIns,
      { clientId, idp: 'nhs', redirectUri: IDP_REDIRECT_URI, outcome: 'linked', userId: ALICE },
    ],
  } as typeof SEED;
  const exchanges: ServedExchange[] = [];
  const listeners: (() => void)[] = [];
  const prefix = `/w/${id}`;
  const sandbox: RunningSandbox = await startSandbox({
    host: opts.host ?? '127.0.0.1',
    seed,
    pathPrefix: prefix,
    modifiers: withCors(withVersionHeaderNames(opts.modifiers)),
    onExchange: (x) => {
      exchanges.push(x);
      for (const l of listeners) l();
    },
  });
  const base = `${sandbox.url}${prefix}`;
  const user = SEED.users.find((u) => u.username === 'alice');
  if (!user) throw new Error('The seed has no demo user alice');
  return {
    config: {
      scenario: opts.scenario,
      discovery: Object.fromEntries(
        Object.entries(DISCOVERY_PATHS).map(([service, path]) => [service, `${base}${path}`]),
      ) as Record<ServiceId, string>,
      tokenUrl: `${base}/oauth/token`,
      clientId,
      clientSecret,
      siteId: SITE_1,
      user: { username: user.username, password: user.password },
      idp: { name: 'nhs', redirectUri: IDP_REDIRECT_URI },
    },
    exchanges,
    onExchange: (l) => listeners.push(l),
    close: () => sandbox.close(),
  };
}
