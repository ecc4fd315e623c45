/**
 * `conformance service`, composed: the database (embedded or PostgreSQL, migrated on open), the
 * service key, the run queue and its workers, the first operator, and the web application.
 *
 * The first operator: when the database holds no operator with a password, the one named by
 * CONFORMANCE_SERVICE_OPERATOR_EMAIL (default operator@localhost) is created, with the password
 * of CONFORMANCE_SERVICE_OPERATOR_PASSWORD when set; without it, a one-time invite link for the
 * operator is printed (every earlier unused one is withdrawn), so no password ever sits in a
 * process listing or a shell history unless the operator chooses so.
 *
 * The service key (AES-256-GCM of partner secrets) comes from CONFORMANCE_SERVICE_KEY. On the
 * embedded engine without it, a key is generated once into the data folder (service.key, mode
 * 600), so a fresh machine just works; PostgreSQL requires it (every machine must hold the same).
 * The signing key (service/signingKey.ts) is found or made the same way: --signing-key FILE,
 * CONFORMANCE_SERVICE_SIGNING_KEY, else signing-key.pem generated in the data folder (embedded only).
 *
 * The data folder is private (service/dataFolder.ts): folders 0700, files 0600; one that cannot be
 * made or written (a read-only mount, another user's) is one line (DataFolderProblem) before anything starts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type CertificateSettings,
  DEFAULT_SETTINGS,
  iso,
  proxyHops,
  type ServiceContext,
  type ServiceSettings,
} from './context.ts';
import { privateDataFolder } from './dataFolder.ts';
import { type OpenedDatabase, openDatabase } from './db/openDatabase.ts';
import type { WorkerPool } from './jobs/embeddedQueue.ts';
import { hashPassword, parseServiceKey, SecretBox, ServiceKeyProblem } from './secrets.ts';
import { retiredKeys, serviceSigningKey } from './signingKey.ts';

export interface ServiceOptions extends Partial<Omit<ServiceSettings, 'dataDir' | 'certificate'>> {
  dataDir?: string;
  /** When a run earns a certificate (each default in DEFAULT_SETTINGS.certificate). */
  certificate?: Partial<CertificateSettings>;
  /** The signing key's PEM file (else CONFORMANCE_SERVICE_SIGNING_KEY, else generated: service/signingKey.ts). */
  signingKeyFile?: string;
  /** A JWK set of public keys the service signed with before (service/signingKey.ts retiredKeys). */
  retiredKeysFile?: string;
  /**
   * PostgreSQL refuses to start without a signing key given (the command sets it: every machine
   * must sign with the same key); a caller running one process (a test) may let one be generated.
   */
  signingKeyRequired?: boolean;
  databaseUrl?: string;
  host?: string;
  port?: number;
  /** Work on runs only (PostgreSQL): no web application. */
  workersOnly?: boolean;
  environment?: NodeJS.ProcessEnv;
  now?: () => Date;
  /** Lines for the operator (the address, the first operator's invite link). */
  say?: (line: string) => void;
}

export interface RunningService {
  /** The web application's address (none with workersOnly). */
  url?: string;
  ctx: ServiceContext;
  database: OpenedDatabase;
  workers: WorkerPool;
  /** The first operator's one-time invite link, when one was made at this start. */
  operatorInvite?: string;
  close(): Promise<void>;
}

export const DEFAULT_DATA_DIR = 'conformance-service-data';

function serviceKey(environment: NodeJS.ProcessEnv, dataDir: string, postgres: boolean): Buffer {
  const fromEnvironment = environment.CONFORMANCE_SERVICE_KEY;
  if (fromEnvironment) return parseServiceKey(fromEnvironment, 'CONFORMANCE_SERVICE_KEY');
  if (postgres)
    throw new ServiceKeyProblem(
      'CONFORMANCE_SERVICE_KEY must be set with --database-url (every machine of the service needs the same key; openssl rand -hex 32)',
    );
  const file = join(dataDir, 'service.key');
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return parseServiceKey(readFileSync(file, 'utf8'), file);
}

async function firstOperator(ctx: ServiceContext, environment: NodeJS.ProcessEnv): Promise<string | undefined> {
  const ready = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'operator')
    .where('password_hash', 'is not', null)
    .executeTakeFirst();
  if (ready) return undefined;
  const email = (environment.CONFORMANCE_SERVICE_OPERATOR_EMAIL || 'operator@localhost').trim().toLowerCase();
  const password = environment.CONFORMANCE_SERVICE_OPERATOR_PASSWORD;
  if (password) {
    if (password.length < 12)
      throw new ServiceKeyProblem('CONFORMANCE_SERVICE_OPERATOR_PASSWORD must be 12 characters or more');
    const hash = await hashPassword(password);
    const existing = await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (existing)
      await ctx.db
        .updateTable('users')
        .set({ password_hash: hash, role: 'operator', organisation_id: null })
        .where('id', '=', existing.id)
        .execute();
    else
      await ctx.db
        .insertInto('users')
        .values({
          id: randomUUID(),
          email,
          password_hash: hash,
          role: 'operator',
          organisation_id: null,
          created_at: iso(ctx.now()),
        })
        .execute();
    return undefined;
  }
  await ctx.db
    .updateTable('invites')
    .set({ used_at: iso(ctx.now()) })
    .where('role', '=', 'operator')
    .where('used_at', 'is', null)
    .execute();
  const { createInvite } = await import('./routes/index.ts');
  return createInvite(ctx, { email, role: 'operator', organisationId: null });
}

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const environment = options.environment ?? process.env;
  const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  privateDataFolder(dataDir);
  const postgres = options.databaseUrl !== undefined;
  const key = serviceKey(environment, dataDir, postgres);
  const database = await openDatabase({ dataDir, databaseUrl: options.databaseUrl });
  let signingKey: Awaited<ReturnType<typeof serviceSigningKey>>;
  let retired: ReturnType<typeof retiredKeys> = [];
  try {
    signingKey = await serviceSigningKey({
      file: options.signingKeyFile,
      environment,
      dataDir,
      required: postgres && options.signingKeyRequired === true,
    });
    if (options.retiredKeysFile !== undefined) retired = retiredKeys(options.retiredKeysFile);
  } catch (e) {
    await database.close();
    throw e;
  }
  const {
    signingKeyFile: _file,
    signingKeyRequired: _required,
    retiredKeysFile: _retired,
    certificate,
    ...rest
  } = options;
  const settings: ServiceSettings = {
    ...DEFAULT_SETTINGS,
    ...stripUndefined(rest),
    certificate: { ...DEFAULT_SETTINGS.certificate, ...stripUndefined(certificate ?? {}) },
    dataDir,
  };
  const queueRef: { current?: WorkerPool } = {};
  const ctx: ServiceContext = {
    db: database.db,
    engine: database.engine,
    box: new SecretBox(key),
    settings,
    queue: { enqueue: (runId) => (queueRef.current ? queueRef.current.enqueue(runId) : Promise.resolve()) },
    now: options.now ?? (() => new Date()),
    environment: { ...process.env, ...environment },
    signingKey,
    retiredKeys: retired,
  };
  let workers: WorkerPool;
  try {
    if (database.engine === 'postgres' && options.databaseUrl) {
      const { startPgBossQueue } = await import('./jobs/pgBossQueue.ts');
      workers = await startPgBossQueue(ctx, options.databaseUrl, { work: true });
    } else {
      const { startEmbeddedQueue } = await import('./jobs/embeddedQueue.ts');
      workers = await startEmbeddedQueue(ctx);
    }
  } catch (e) {
    await database.close();
    throw e;
  }
  queueRef.current = workers;
  const { startRetention } = await import('./retention.ts');
  const stopRetention = startRetention(ctx);
  const closeAll = async () => {
    await stopRetention();
    await workers.stop();
    await database.close();
  };
  if (options.workersOnly) return { ctx, database, workers, close: closeAll };

  let operatorInvite: string | undefined;
  let app: Awaited<ReturnType<typeof import('./app.ts')['buildServiceApp']>> | undefined;
  try {
    const invitePath = await firstOperator(ctx, environment);
    const { buildServiceApp } = await import('./app.ts');
    app = await buildServiceApp(ctx, { trustProxy: proxyHops(settings.trustProxy) });
    const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
    ctx.listeningUrl = address;
    const url = (settings.publicUrl ?? address).replace(/\/+$/, '');
    if (invitePath) operatorInvite = url + invitePath;
    const running = app;
    return {
      url: address,
      ctx,
      database,
      workers,
      ...(operatorInvite ? { operatorInvite } : {}),
      async close() {
        await running.close();
        await closeAll();
      },
    };
  } catch (e) {
    await app?.close().catch(() => {});
    await closeAll();
    throw e;
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
