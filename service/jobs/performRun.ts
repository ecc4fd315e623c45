/**
 * One claimed run, performed: the product's URLs are guarded (service/ssrf.ts), its config written
 * into the run's folder and its secrets opened only for the run, then `runConformance` (the same
 * run as the command's, with `--allow-destructive` when the product allows changes to its target)
 * writes the report under the data folder. Progress goes to the run's row
 * as suites start and finish; the lease is renewed meanwhile; the report folder is signed with
 * the service's key and a certificate made when the run earns one (service/certificates.ts); the
 * outcome, the signed folder's files and the certificate are written only while the claim holds. A run stopped because the worker stops is given back to the queue, not judged.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sendNoLaterThan, sharedPacing } from '../../core/http.ts';
import type { ServiceContext } from '../context.ts';
import { finishSigned } from './finishSigned.ts';
import { hostsOf, newHosts, openSecrets, urlsOf } from '../secretHosts.ts';
import { guardTarget, TargetRefused } from '../ssrf.ts';
import { type Claim, failRun, keepLease, releaseRun } from './claims.ts';
import { RowProgress } from './runProgress.ts';

/** Every environment variable a config names for a secret (tokenEnv, clientSecretEnv, ...). */
export function variablesOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) variablesOf(v, into);
  else if (value && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      if (/Env$/.test(key) && typeof v === 'string') into.add(v);
      else variablesOf(v, into);
    }
  return into;
}

/**
 * The run reads a config's secrets from the service's own environment first (core/config.ts), so
 * a config naming a variable the service holds (CONFORMANCE_SERVICE_KEY, a database password)
 * would send it to the partner's server: every variable named must be one of the product's stored
 * secrets and unset in the service's environment.
 */
export function secretProblem(
  named: Set<string>,
  stored: Record<string, string>,
  environment: NodeJS.ProcessEnv,
): string | undefined {
  const held = [...named].filter((n) => environment[n] !== undefined && environment[n] !== '');
  if (held.length > 0)
    return `The config names ${held.join(', ')}, set in the service's own environment: name the secrets otherwise`;
  const missing = [...named].filter((n) => !(n in stored));
  if (missing.length > 0)
    return `The config names ${missing.join(', ')}, with no stored secret: add it on the product's page`;
  return undefined;
}

export async function performRun(ctx: ServiceContext, claim: Claim, asked: AbortSignal): Promise<void> {
  let earlier: string | null = null;
  const fail = (problem: string) => failRun(ctx, claim, problem, earlier);
  // The run's calls stop when its lease lapses (a paused process), before any other worker may take it.
  const pacing = sharedPacing();
  const lapsed = new AbortController();
  const stopping = AbortSignal.any([asked, lapsed.signal]);
  const stopLease = keepLease(
    ctx,
    claim,
    (until) => {
      if (!stopping.aborted) sendNoLaterThan(pacing, until);
    },
    () => lapsed.abort(),
  );
  // A run cancelled, taken back or stopped starts no call more (the suites running end unjudged).
  stopping.addEventListener('abort', () => sendNoLaterThan(pacing, 1), { once: true });
  try {
    const run = await ctx.db.selectFrom('runs').selectAll().where('id', '=', claim.runId).executeTakeFirstOrThrow();
    earlier = run.problem;
    const product = await ctx.db
      .selectFrom('products')
      .selectAll()
      .where('id', '=', run.product_id)
      .executeTakeFirstOrThrow();
    const stored = await ctx.db
      .selectFrom('product_configs')
      .selectAll()
      .where('product_id', '=', product.id)
      .executeTakeFirst();
    const runFolder = join(ctx.settings.dataDir, 'runs', run.id);
    const reportDir = join(ctx.settings.dataDir, 'reports', run.id);
    mkdirSync(runFolder, { recursive: true, mode: 0o700 });
    let config: string;
    let environmentFallbacks: Record<string, string>;
    if (stored?.config_json) {
      config = join(runFolder, 'config.json');
      writeFileSync(config, stored.config_json, { mode: 0o600 });
      const secrets = openSecrets(ctx.box, stored.secrets_encrypted);
      environmentFallbacks = secrets.values;
      // Secrets go only to the hosts they were stored for (service/secretHosts.ts).
      const elsewhere = secrets.hosts ? newHosts(secrets.hosts, hostsOf(stored.config_json, product.base_url)) : [];
      if (elsewhere.length > 0 && Object.keys(secrets.values).length > 0) {
        await fail(
          `Refused: the config names ${elsewhere.join(', ')}, which the stored secrets were not given for (${secrets.hosts?.join(', ')}); enter them again on the config page to send them there.`,
        );
        return;
      }
    } else {
      const demo = await import('../../server/demoConfig.ts');
      config = demo.DEMO_CONFIG_FILE;
      environmentFallbacks = { ...demo.DEMO_ENVIRONMENT };
    }
    const problem = secretProblem(
      // The demo config names exactly the variables of its public demo values.
      stored?.config_json ? variablesOf(JSON.parse(stored.config_json)) : new Set(Object.keys(environmentFallbacks)),
      environmentFallbacks,
      ctx.environment,
    );
    if (problem) {
      await fail(problem);
      return;
    }
    const named = stored?.config_json ? urlsOf(JSON.parse(stored.config_json), product.base_url) : [];
    try {
      for (const url of [product.base_url, ...named]) await guardTarget(url, ctx.settings.allowRanges);
    } catch (e) {
      if (e instanceof TargetRefused) {
        await fail(`Refused: ${e.message}`);
        return;
      }
      throw e;
    }
    const progress = new RowProgress(ctx, claim);
    const { runConformance } = await import('../../app/runConformance.ts');
    const outcome = await runConformance({
      target: product.base_url,
      config,
      environmentFallbacks,
      // The config's variables come from the product's secrets alone, never the service's environment,
      // and every address a call connects to is checked as it connects (discovery's, redirects').
      environment: environmentFallbacks,
      connectGuard: { allowRanges: ctx.settings.allowRanges },
      ...(product.only ? { only: product.only } : {}),
      reportDir,
      // The product says whether its target is a test environment whose data runs may change.
      allowDestructive: Boolean(product.allow_changes),
      progress,
      signal: stopping,
      pacing,
    });
    await progress.flushed();
    if (stopping.aborted) {
      await releaseRun(ctx, claim);
      return;
    }
    if (outcome.problem || !outcome.results) {
      await fail(outcome.problem ?? `The run ended with exit code ${outcome.exitCode} and no results`);
      return;
    }
    // Signed, and its certificate made when earned (service/certificates.ts), before the outcome is written.
    await finishSigned(ctx, claim, run, reportDir, outcome.results);
  } catch (e) {
    if (stopping.aborted) await releaseRun(ctx, claim).catch(() => {});
    else await fail(`The service could not perform the run: ${(e as Error).message.split('\n')[0]}`).catch(() => {});
  } finally {
    stopLease();
  }
}
