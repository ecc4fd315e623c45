/**
 * `conformance service`: the hosted certification service (service/) until Ctrl-C. The embedded
 * database (SQLite compiled to WebAssembly, one process's: the data folder is locked while the
 * service runs) under --data-dir by default; --database-url postgres://... for PostgreSQL, where
 * --workers-only processes on other machines share the runs. --queue-limit bounds the runs an
 * organisation has queued or running; --retain-days prunes old runs' reports (certified ones kept).
 * --trust-proxy N trusts N reverse proxies (alone: 1): the client's address is the Nth from the
 * right of X-Forwarded-For. A database that cannot be opened, a data folder that cannot be
 * written or that another service holds, or a missing service key or signing key, is one line and
 * exit 2.
 */
import { DEFAULT_SETTINGS } from '../service/context.ts';
import { type Command, integer, parse, SetupProblem, UsageError } from './command.ts';
import { onInterrupt } from './interrupt.ts';

const RANGES = ['loopback', 'private', 'link-local'] as const;
const { organisationQueueLimit: DEFAULT_QUEUE_LIMIT, retainDays: DEFAULT_RETAIN_DAYS } = DEFAULT_SETTINGS;

/** `--trust-proxy` with no number after it (the last word, or an option next) means one proxy, as it did before N. */
function trustProxyAlone(argv: string[]): string[] {
  return argv.map((word, i) =>
    word === '--trust-proxy' && (argv[i + 1] === undefined || argv[i + 1].startsWith('--')) ? '--trust-proxy=1' : word,
  );
}

export const service: Command = {
  help: {
    usage: [
      'service [--port N] [--host H] [--data-dir DIR] [--database-url URL] [--public-url URL] [--signing-key FILE] [--retired-keys FILE] [--allow-ranges LIST] [--trust-proxy [N]] [--workspace-host H] [--queue-limit N] [--retain-days N]',
      'service --workers-only --database-url URL [--data-dir DIR] [--signing-key FILE] [--workspace-host H] [--retain-days N]',
    ],
    summary: 'host the certification service: partners sign in, register products and run certifications',
    options: [
      ['--port N', 'port to listen on (default 8080; 0: any free port)'],
      ['--host H', 'address to listen on (default 127.0.0.1)'],
      [
        '--data-dir DIR',
        'reports and the embedded database (default ./conformance-service-data; with the embedded database, one service at a time)',
      ],
      [
        '--database-url URL',
        'PostgreSQL (postgres://...) instead of the embedded database; needs CONFORMANCE_SERVICE_KEY and a signing key',
      ],
      [
        '--retired-keys FILE',
        'a JWK set of public keys the service signed with before (the jwks.json of keys generate): published beside the current key, so that what they signed still verifies; never used to sign',
      ],
      [
        '--signing-key FILE',
        'the Ed25519 private key (PEM, as keys generate writes it) the service signs reports and certificates with; its public key is served at /.well-known/jwks.json. Else CONFORMANCE_SERVICE_SIGNING_KEY holding the PEM text; else, on the embedded database, signing-key.pem generated in the data folder. With --database-url one must be given, the same on every machine',
      ],
      ['--workers-only', 'perform queued runs only, no web pages (several machines on one PostgreSQL)'],
      ['--public-url URL', 'the address people reach the service at (invite links; https makes cookies Secure)'],
      ['--allow-ranges LIST', 'comma-separated: loopback, private, link-local: product URLs there are allowed'],
      [
        '--workspace-host H',
        "the address client workspaces listen on and partners' clients reach them at (default 127.0.0.1; a name or address, not 0.0.0.0)",
      ],
      [
        '--queue-limit N',
        `runs one organisation may have queued or running at once; a start beyond it is refused with a message (default ${DEFAULT_QUEUE_LIMIT})`,
      ],
      [
        '--retain-days N',
        `days a run's report and record are kept after it ends; older ones are pruned, except the runs certificates rest on (default ${DEFAULT_RETAIN_DAYS}; 0: keep every run)`,
      ],
      [
        '--trust-proxy [N]',
        "behind N reverse proxies (alone: 1): the client's address is the Nth from the right of X-Forwarded-For (the one the outermost of them saw, never the left-most, which the client writes), the protocol from X-Forwarded-Proto",
      ],
    ],
  },
  async run(argv, io) {
    const { values } = parse(trustProxyAlone(argv), {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      'workers-only': { type: 'boolean' },
      'public-url': { type: 'string' },
      'allow-ranges': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'signing-key': { type: 'string' },
      'retired-keys': { type: 'string' },
      'workspace-host': { type: 'string' },
      'queue-limit': { type: 'string' },
      'retain-days': { type: 'string' },
    });
    const queueLimit = integer('queue-limit', values['queue-limit'] as string | undefined, 1, 100_000);
    const trustProxy = integer('trust-proxy', values['trust-proxy'] as string | undefined, 1, 32);
    const retainDays = integer('retain-days', values['retain-days'] as string | undefined, 0, 36_500);
    const workspaceHost = values['workspace-host'] as string | undefined;
    if (workspaceHost !== undefined && !/^[A-Za-z0-9.-]+$|^\[?[0-9a-fA-F:]+\]?$/.test(workspaceHost))
      throw new UsageError(
        `--workspace-host must be a host name or address, received ${JSON.stringify(workspaceHost)}`,
      );
    if (workspaceHost !== undefined && /^(0\.0\.0\.0|\[?::\]?)$/.test(workspaceHost))
      throw new UsageError(
        `--workspace-host is also the address clients are given: name one they reach (this machine's name or address), received ${workspaceHost}`,
      );
    const port = integer('port', values.port as string | undefined, 0, 65535) ?? 8080;
    const databaseUrl = values['database-url'] as string | undefined;
    const workersOnly = values['workers-only'] === true;
    if (workersOnly && databaseUrl === undefined)
      throw new UsageError('--workers-only needs --database-url: workers share runs through PostgreSQL');
    const allowRanges = ((values['allow-ranges'] as string | undefined) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    for (const r of allowRanges)
      if (!(RANGES as readonly string[]).includes(r))
        throw new UsageError(`--allow-ranges takes ${RANGES.join(', ')}, received ${JSON.stringify(r)}`);
    const signingKeyFile = values['signing-key'] as string | undefined;
    if (signingKeyFile === '') throw new UsageError('--signing-key must not be empty');
    const publicUrl = values['public-url'] as string | undefined;
    if (publicUrl !== undefined && !/^https?:\/\/[^/]+/.test(publicUrl))
      throw new UsageError(`--public-url must be an http or https URL, received ${JSON.stringify(publicUrl)}`);

    const [{ startService, DEFAULT_DATA_DIR }, { DatabaseUnavailable }, { ServiceKeyProblem }, { DataFolderProblem }] =
      await Promise.all([
        import('../service/startService.ts'),
        import('../service/db/openDatabase.ts'),
        import('../service/secrets.ts'),
        import('../service/dataFolder.ts'),
      ]);
    // Whatever the service and its runs write (the database, keys, reports, run folders) is its own alone.
    try {
      process.umask(0o077);
    } catch {
      // A worker thread (the command run inside a test) may not set it: the service's own modes still hold.
    }
    let running: Awaited<ReturnType<typeof startService>>;
    try {
      running = await startService({
        dataDir: (values['data-dir'] as string | undefined) ?? DEFAULT_DATA_DIR,
        ...(databaseUrl !== undefined ? { databaseUrl } : {}),
        host: (values.host as string | undefined) ?? '127.0.0.1',
        port,
        workersOnly,
        allowRanges: allowRanges as (typeof RANGES)[number][],
        ...(publicUrl !== undefined ? { publicUrl } : {}),
        ...(trustProxy !== undefined ? { trustProxy } : {}),
        ...(workspaceHost !== undefined ? { workspaceHost } : {}),
        ...(queueLimit !== undefined ? { organisationQueueLimit: queueLimit } : {}),
        ...(retainDays !== undefined ? { retainDays } : {}),
        ...(signingKeyFile !== undefined ? { signingKeyFile } : {}),
        ...(values['retired-keys'] !== undefined ? { retiredKeysFile: values['retired-keys'] as string } : {}),
        signingKeyRequired: true,
      });
    } catch (e) {
      if (e instanceof DatabaseUnavailable || e instanceof ServiceKeyProblem || e instanceof DataFolderProblem)
        throw new SetupProblem(e.message);
      throw e;
    }
    io.out(
      `Database: ${running.database.engine === 'sqlite' ? 'embedded' : 'PostgreSQL'} at ${running.database.where}`,
    );
    io.out(
      `Signing key ${running.ctx.signingKey.kid}${running.url ? `: public keys at ${(running.ctx.settings.publicUrl ?? running.url).replace(/\/+$/, '')}/.well-known/jwks.json` : ''}`,
    );
    const { organisationQueueLimit, retainDays: kept } = running.ctx.settings;
    io.out(
      `Runs: at most ${organisationQueueLimit} queued or running per organisation (--queue-limit); ${kept === 0 ? 'every run kept' : `reports kept ${kept} days after a run ends, certified runs' evidence always`} (--retain-days)`,
    );
    if (running.url) io.out(`listening on ${running.url}`);
    else io.out('working on queued runs (no web pages)');
    if (running.operatorInvite)
      io.out(
        `No operator yet: set the operator's password within ${running.ctx.settings.inviteHours} hours at ${running.operatorInvite}`,
      );
    await new Promise<void>((resolve) => onInterrupt(resolve));
    await running.close();
    return 0;
  },
};
