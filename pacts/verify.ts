/**
 * Provider verification with Pact's own Verifier (issue 12, item 3): the reference pacts (or the
 * given pact files) against any target, folded into the same sealed results and report folder as
 * `conformance run` (app/runConformance.ts), one result per interaction.
 *
 * - Provider states come from the target's state endpoint (`{target}/_pact/provider-states`, the
 *   contract of pacts/README.md) or, with `stateSource: 'fixtures'`, from the config's fixtures;
 *   an interaction whose state the fixtures cannot arrange is skipped with that reason.
 * - A request filter adds the credentials (bearer token obtained as `conformance run` does, the
 *   user's, the diary's or Basic where the operation needs it), the config's SU-SiteId, and
 *   rewrites the sandbox's reference path to the address the target's discovery documents give.
 * - Per-interaction outcomes are the Verifier's own JSON report (pact_ffi `pactffi_verifier_json`,
 *   which pact-core resolves on success and rejects with on failure): `interactionResults` and
 *   the `errors` with their mismatches.
 */
import { writeSealedReport } from '../app/sealedReport.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { allSecretsOf, ConfigError, loadConfig, type ResolvedConfig } from '../core/config.ts';
import {
  DESTRUCTIVE_STEP,
  FIXTURE_CONFIGURED,
  type DecidedOutcome,
  PACT_INTERACTION_VERIFIED,
} from '../core/decidedOutcomes.ts';
import { addressOf, discover, TargetUnreachableError } from '../core/discovery.ts';
import type { WorkerResult } from '../core/events.ts';
import { HttpClient } from '../core/http.ts';
import { Redactor } from '../core/redact.ts';
import type { ExchangeRecord } from '../core/results.ts';
import { EXIT } from '../core/results.ts';
import { suiteVersion } from '../core/suiteVersion.ts';
import { obtainToken, obtainTokens } from '../core/token.ts';
import type { RunOutcome } from '../app/runConformance.ts';
import { addressOf as referenceAddressOf } from '../server/router/addresses.ts';
import { operations } from '../spec/operations.ts';
import { loadRequirements } from '../spec/requirements.ts';
import type { Operation, ServiceId } from '../spec/types.ts';
import { CREDENTIAL_PLACEHOLDER, generateReferencePacts } from './generate.ts';
import { providerState, stateFromFixtures } from './providerStates.ts';
import { normaliseHeaders } from '../core/clientRequest.ts';
import { isObject as isRecord, PactFileError, readPact as readPactFile } from './readPact.ts';
import { NO_OPERATION, resolveRequest } from './resolveOperation.ts';
import type { ChildVerifyOptions } from './verifyInChild.ts';

export type { RunOutcome } from '../app/runConformance.ts';
export type { Verified, VerifiedInteractions, VerifyOptions } from './verifyTypes.ts';
import type { Verified, VerifyOptions } from './verifyTypes.ts';

type VerifierConfig = ConstructorParameters<typeof Verifier>[0];

/** Where the verifier posts state changes on a target (pacts/README.md). */
export const STATE_ENDPOINT_PATH = '/_pact/provider-states';

interface PactRequest {
  method: string;
  path: string;
  query?: unknown;
  headers?: Record<string, unknown>;
  body?: unknown;
}
interface PactInteraction {
  description: string;
  providerStates?: { name: string; params?: Record<string, unknown> }[];
  providerState?: string;
  request: PactRequest;
}
interface PactDocument {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
}

/** The pact as Pact wrote it (its interactions are written back, filtered, for the Verifier). */
function readPact(file: string): PactDocument {
  return readPactFile(file).raw as unknown as PactDocument;
}

const stateNames = (i: PactInteraction): string[] =>
  i.providerStates?.map((s) => s.name) ?? (i.providerState ? [i.providerState] : []);

/** A state with its params, as one key (params in any key order alike). */
function stateKey(name: string, params: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : isRecord(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical(v[k])]),
          )
        : v;
  return `${name}\n${JSON.stringify(canonical(isRecord(params) ? params : {}))}`;
}

const stateKeys = (i: PactInteraction): string[] =>
  i.providerStates?.map((s) => stateKey(s.name, s.params)) ?? (i.providerState ? [stateKey(i.providerState, {})] : []);

/** A state the target did not arrange: the interaction is not verified (skip), or could not be (error). */
interface StateRefusal {
  status: 'skip' | 'error';
  message: string;
}

/** The state endpoint answered 4xx: it does not know the state or its params (pacts/README.md). */
class StateRefused extends Error {}

/** The request as a path with its query string, headers and body text, for resolveRequest. */
function requestParts(r: PactRequest): { path: string; headers: Record<string, string>; body?: string } {
  const q = new URLSearchParams();
  if (typeof r.query === 'string') for (const [k, v] of new URLSearchParams(r.query)) q.append(k, v);
  else if (isRecord(r.query))
    for (const [k, v] of Object.entries(r.query)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, String(x));
  const headers = normaliseHeaders(r.headers);
  const body = r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  return { path: `${r.path}${q.size > 0 ? `?${q}` : ''}`, headers, body };
}

/**
 * Requirements a verified interaction judges: the operation's testable statements about its
 * answer (status, body, resource shape), or about the documented error it expects.
 */
function requirementsOf(op: Operation, expectsError: string | undefined): string[] {
  // The result is at MUST: it cites only MUST rows (never stricter than a row it cites).
  const own = loadRequirements().filter(
    (r) => r.notTestedReason === '' && r.level === 'MUST' && r.operations.includes(op.id),
  );
  if (expectsError !== undefined)
    return own
      .filter((r) =>
        expectsError === ''
          ? /missing|absent|without|HTTP 400/i.test(r.text)
          : r.text.includes(expectsError) || /OperationOutcome/.test(r.text),
      )
      .map((r) => r.id);
  return own
    .filter((r) =>
      /\b(returns?|answers?|HTTP [0-9]{3}|Bundle|resource|carries|holds|body|schema|status)\b/i.test(r.text),
    )
    .filter((r) => !/\b(error|unknown|missing|invalid|refused|without|after)\b/i.test(r.text))
    .map((r) => r.id);
}

/** The documented error an interaction expects, from its response status ('' when no code is pinned). */
function expectedError(raw: PactInteraction): string | undefined {
  const response = (raw as unknown as { response?: { status?: number; body?: unknown } }).response;
  if (!response || typeof response.status !== 'number' || response.status < 400) return undefined;
  const code = JSON.stringify(response.body ?? '').match(/"code":"([A-Z_]+)"/)?.[1];
  return code ?? '';
}

interface Planned {
  file: string;
  consumer: string;
  provider: string;
  interaction: PactInteraction;
  operation: Operation;
  /** Why the interaction is not run (a decided outcome), or undefined when it runs. */
  notRun?: { outcome: DecidedOutcome; status: 'skip' | 'omit'; message: string };
}

/** Minimal view of the express request the Verifier's proxy hands the filter. */
interface FilterRequest {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

function bodyText(req: FilterRequest): string | undefined {
  const b = req.body;
  if (b === undefined || b === null) return undefined;
  if (Buffer.isBuffer(b)) return b.toString('utf8');
  if (!isRecord(b)) return undefined;
  const type = String(req.headers['content-type'] ?? '');
  // The proxy's body parsers turned a form or JSON body into an object; the proxy would forward
  // it as JSON, whatever the Content-Type (a form body arrives as JSON, truncated): re-encode it.
  if (type.startsWith('application/x-www-form-urlencoded')) {
    if (Object.keys(b).length === 0 && (req.headers['content-length'] ?? '0') === '0') return '';
    return new URLSearchParams(Object.entries(b).map(([k, v]) => [k, String(v)])).toString();
  }
  if (Object.keys(b).length === 0 && (req.headers['content-length'] ?? '0') === '0') return undefined;
  return JSON.stringify(b);
}

interface VerifierReport {
  interactionResults?: { description?: string; result?: string }[];
  errors?: {
    interaction?: string;
    mismatch?: { type?: string; message?: string; mismatches?: { mismatch?: string }[] };
  }[];
}

function parseReport(text: string): VerifierReport | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return isRecord(v) ? (v as VerifierReport) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies the interactions and returns one result per interaction (no report). Used in the
 * child process of verifyInChild.ts, so that the native verifier's console output, which may
 * quote the target's answers, never reaches a terminal or a CI log.
 */
export async function verifyInteractions(opts: ChildVerifyOptions): Promise<Verified> {
  process.env.PACT_DO_NOT_TRACK = 'true';
  const stateSource = opts.stateSource ?? 'endpoint';
  let client: HttpClient | undefined;
  const temp = mkdtempSync(join(tmpdir(), 'conformance-pact-verify-'));
  try {
    const config = loadConfig({ file: opts.config, target: opts.target, fallbacks: opts.environmentFallbacks });
    const files = opts.pactFiles?.length
      ? opts.pactFiles.map((f) => resolve(f))
      : await generateReferencePacts(join(temp, 'reference'));
    const docs = files.map((file) => ({ file, doc: readPact(file) }));

    const planned: Planned[] = [];
    // States the target is known not to arrange, and those its state endpoint refuses as they come.
    const refusals = new Map<string, StateRefusal>(
      (opts.unarrangedStates ?? []).map((u) => [stateKey(u.name, u.params), { status: 'skip', message: u.reason }]),
    );
    const unaddressed: WorkerResult[] = [];
    for (const { file, doc } of docs) {
      for (const interaction of doc.interactions) {
        const parts = requestParts(interaction.request);
        const op = resolveRequest(interaction.request.method, parts.path, parts.headers, parts.body)?.operation;
        if (!op && opts.ignoreUnaddressed) {
          // Reported, not dropped: the OpenAPI comparison of `pact check` fails it, this says why it is not verified.
          unaddressed.push({
            check: PACT_INTERACTION_VERIFIED.id,
            summary: PACT_INTERACTION_VERIFIED.summary,
            level: 'MUST',
            status: 'skip',
            message:
              `Not verified: ${interaction.request.method} ${interaction.request.path} is at no operation's ` +
              "address (no discovery key's address ends the path, after any base)",
            operation: NO_OPERATION,
            requirements: [],
            test: `${basename(file)}: ${interaction.description}`,
            evidence: { pact: basename(file), interaction: interaction.description, states: stateNames(interaction) },
          });
          continue;
        }
        if (!op)
          throw new PactFileError(
            `Expected interaction "${interaction.description}" of ${file} at an address of the operation table, received ${interaction.request.method} ${interaction.request.path}`,
          );
        const p: Planned = {
          file,
          consumer: doc.consumer.name,
          provider: doc.provider.name,
          interaction,
          operation: op,
        };
        const refused = stateKeys(interaction)
          .map((k) => refusals.get(k))
          .find((r) => r !== undefined);
        if (refused) p.notRun = { outcome: PACT_INTERACTION_VERIFIED, status: 'skip', message: refused.message };
        else if (stateSource === 'fixtures') {
          for (const name of stateNames(interaction)) {
            const s = providerState(name);
            const arranged = s ? stateFromFixtures(s, config) : { missing: `state "${name}" is not in the catalogue` };
            if ('missing' in arranged)
              p.notRun = { outcome: FIXTURE_CONFIGURED, status: 'skip', message: `Not verified: ${arranged.missing}` };
          }
          if (!p.notRun && op.destructive && !opts.allowDestructive)
            p.notRun = {
              outcome: DESTRUCTIVE_STEP,
              status: 'omit',
              message: `Not verified: ${op.id} is destructive and the states come from the fixtures (allow destructive to run it)`,
            };
        }
        planned.push(p);
      }
    }

    client = new HttpClient(config.http);
    const stateClient = client;
    let redactor = Redactor.forRun({
      secrets: allSecretsOf(config),
      evidence: 'masked',
      fixtures: config.fixtures,
      http: config.http,
    });
    const services = [...new Set(planned.map((p) => p.operation.service))] as ServiceId[];
    const discovery = await discover(client, config.services, services);
    const token = await obtainToken(client, config.credentials);
    redactor = redactor.with([token]);
    const runnerExchanges = new Map<string, ExchangeRecord>();
    for (const d of discovery.values()) runnerExchanges.set(d.exchange.id, redactor.exchange(d.exchange));

    const results: WorkerResult[] = [];
    const addresses = new Map<string, URL>();
    for (const op of new Set(planned.map((p) => p.operation))) {
      const a = addressOf(op, discovery);
      if ('url' in a) addresses.set(op.id, new URL(a.url));
    }
    for (const p of planned.filter((x) => !x.notRun && !addresses.has(x.operation.id))) {
      const a = addressOf(p.operation, discovery);
      p.notRun = {
        outcome: PACT_INTERACTION_VERIFIED,
        status: 'skip',
        message: `Not verified: no address for ${p.operation.id} (${'problem' in a ? a.problem : 'unknown'})`,
      };
    }

    const credentials = new Credentials(client, config, (secret) => {
      redactor = redactor.with([secret]);
    });
    const runnable = planned.filter((p) => !p.notRun);
    let report: VerifierReport = {};
    if (runnable.length > 0) {
      const filtered = writeRunnable(runnable, join(temp, 'verify'));
      let current: Record<string, string> = {};
      const setup = async (name: string, params: Record<string, unknown> | undefined) => {
        if (stateSource === 'fixtures') {
          const s = providerState(name);
          const arranged = s ? stateFromFixtures(s, config) : undefined;
          current = arranged && 'values' in arranged ? arranged.values : {};
          return { ...current };
        }
        // A state the target does not arrange leaves its interaction not verified (the results say
        // so below): its request still goes (Pact runs it whatever a state handler says), with the
        // pact's own values and none of an earlier state's.
        const key = stateKey(name, params);
        current = {};
        if (refusals.has(key)) return {};
        let answer: Record<string, unknown>;
        try {
          answer = await postStateChange(stateClient, config.target, {
            state: name,
            params: params ?? {},
            action: 'setup',
          });
        } catch (e) {
          const why = redactor.text((e as Error).message.split('\n')[0]);
          const stateText = `Provider state "${name}" with params ${JSON.stringify(params ?? {})}`;
          refusals.set(
            key,
            e instanceof StateRefused
              ? {
                  status: 'skip',
                  message: `${stateText} is unknown to the target (${why}): the interaction was not verified`,
                }
              : {
                  status: 'error',
                  message: `${stateText} could not be arranged (${why}): the interaction was not verified`,
                },
          );
          return {};
        }
        const own = opts.paramsArranged ? (params ?? {}) : {};
        current = Object.fromEntries(Object.entries({ ...answer, ...own }).map(([k, v]) => [k, String(v)]));
        return { ...current };
      };
      const stateHandlers = Object.fromEntries(
        [...new Set(runnable.flatMap((p) => stateNames(p.interaction)))].map((name) => [
          name,
          {
            setup: (params?: unknown) => setup(name, isRecord(params) ? params : undefined),
            teardown: async (params?: unknown) => {
              if (stateSource === 'endpoint' && !refusals.has(stateKey(name, params)))
                await postStateChange(stateClient, config.target, {
                  state: name,
                  params: isRecord(params) ? params : {},
                  action: 'teardown',
                });
              return undefined;
            },
          },
        ]),
      );
      const requestFilter = async (req: FilterRequest, _res: unknown, next: (e?: unknown) => void) => {
        try {
          if (req.path !== '/_pactSetup') await prepareRequest(req, { config, addresses, credentials, current });
          next();
        } catch (e) {
          next(e);
        }
      };
      const target = new URL(config.target);
      const verifier = new Verifier({
        provider: runnable[0].provider,
        providerBaseUrl: target.origin,
        pactUrls: filtered,
        logLevel: 'error',
        changeOrigin: true,
        // Certificates checked, against the config's CA too (pacts/forwarding.ts).
        validateSSL: true,
        // The options type joins HTTP and message state handlers; these are HTTP ones.
        stateHandlers: stateHandlers as unknown as NonNullable<VerifierConfig['stateHandlers']>,
        requestFilter: requestFilter as unknown as NonNullable<
          ConstructorParameters<typeof Verifier>[0]['requestFilter']
        >,
      });
      let raw: string;
      try {
        raw = String(await verifier.verifyProvider());
      } catch (e) {
        raw = e instanceof Error ? e.message : String(e);
      }
      const parsed = parseReport(raw);
      if (!parsed) return { problem: `Pact verification could not run: ${redactor.text(raw.split('\n')[0])}` };
      report = parsed;
    }

    for (const p of planned) {
      const expects = expectedError(p.interaction);
      const base = {
        operation: p.operation.id,
        requirements: requirementsOf(p.operation, expects),
        test: `${basename(p.file)}: ${p.interaction.description}`,
        evidence: { pact: basename(p.file), interaction: p.interaction.description, states: stateNames(p.interaction) },
      };
      if (p.notRun) {
        results.push({
          check: p.notRun.outcome.id,
          summary: p.notRun.outcome.summary,
          level: 'MUST',
          status: p.notRun.status,
          message: p.notRun.message,
          ...base,
        });
        continue;
      }
      // The Verifier ran it, but its state was not arranged: whatever the answer, it says nothing of the target.
      const refused = stateKeys(p.interaction)
        .map((k) => refusals.get(k))
        .find((r) => r !== undefined);
      results.push({
        check: PACT_INTERACTION_VERIFIED.id,
        summary: PACT_INTERACTION_VERIFIED.summary,
        level: 'MUST',
        ...(refused ?? outcomeOf(p, report, redactor)),
        ...base,
      });
    }
    results.push(...unaddressed);

    const ids = new Set(planned.map((p) => p.operation.id));
    return {
      results,
      exchanges: [...runnerExchanges],
      operations: operations.filter((o) => ids.has(o.id)).map((o) => o.id),
      target: config.target,
      configDigest: config.digest,
      attestation: config.attestation,
      allowDestructive: stateSource === 'endpoint' || opts.allowDestructive === true,
    };
  } catch (e) {
    if (e instanceof ConfigError || e instanceof TargetUnreachableError || e instanceof PactFileError)
      return { problem: e.message };
    throw e;
  } finally {
    await client?.close();
    rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * `conformance pact verify`: the interactions verified (in a child process, verifyInChild.ts) and
 * folded into the same sealed results and report folder as `conformance run`.
 */
export async function verifyPacts(opts: VerifyOptions): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const { verifyInChild } = await import('./verifyInChild.ts');
  const v = await verifyInChild(opts);
  if ('problem' in v) return { exitCode: EXIT.usage, problem: v.problem };
  return writeSealedReport(opts.reportDir, {
    suite: suiteVersion(),
    target: v.target,
    configDigest: v.configDigest,
    attestation: v.attestation,
    evidence: 'masked',
    seed: 0,
    runs: 0,
    allowDestructive: v.allowDestructive,
    startedAt,
    finishedAt: new Date().toISOString(),
    operations: v.operations,
    events: [],
    runnerExchanges: new Map(v.exchanges),
    runnerResults: v.results,
    minCoverage: opts.minCoverage ?? 0,
  });
}

/** The Verifier's judgement of one interaction. */
function outcomeOf(p: Planned, report: VerifierReport, redactor: Redactor): Pick<WorkerResult, 'status' | 'message'> {
  const description = p.interaction.description;
  const failure = report.errors?.find(
    (e) => e.interaction?.endsWith(` - ${description}`) || e.interaction === description,
  );
  const ran = report.interactionResults?.find((r) => r.description === description);
  if (failure) {
    const mismatch = failure.mismatch;
    const lines = (mismatch?.mismatches ?? []).map((m) => m.mismatch ?? '').filter((m) => m !== '');
    const detail = lines.length > 0 ? lines.join('; ') : (mismatch?.message ?? 'a failure without detail');
    const status = mismatch?.type === 'error' ? 'error' : 'fail';
    return {
      status,
      message: redactor.text(
        `Expected the answer pact interaction "${description}" describes, received: ${detail}`.slice(0, 2000),
      ),
    };
  }
  if (ran?.result === 'OK')
    return { status: 'pass', message: `Pact interaction "${description}" verified: the answer matches the pact` };
  return {
    status: 'error',
    message: `Expected a Verifier result for pact interaction "${description}", received none`,
  };
}

/** The runnable interactions as Pact files of their own (one per source file). */
function writeRunnable(runnable: readonly Planned[], dir: string): string[] {
  const byFile = new Map<string, Planned[]>();
  for (const p of runnable) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  const out: string[] = [];
  let n = 0;
  for (const [file, own] of byFile) {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as PactDocument;
    doc.interactions = doc.interactions.filter((i) => own.some((p) => p.interaction.description === i.description));
    const target = join(`${dir}-${n++}-${basename(file)}`);
    writeFileSync(target, JSON.stringify(doc));
    out.push(target);
  }
  return out;
}

/** The one-line `error` of a state endpoint's refusal (pacts/README.md), when it gives one. */
function errorOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    return isRecord(body) && typeof body.error === 'string' ? body.error.split('\n')[0].slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** Asks the target's state endpoint for a state, through the run's client (its TLS, proxy and limits). */
async function postStateChange(
  client: HttpClient,
  target: string,
  change: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const url = `${target}${STATE_ENDPOINT_PATH}`;
  const x = await client.send({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(change),
  });
  if (!x.response)
    throw new Error(`Expected an answer from the state endpoint ${url} for "${String(change.state)}": ${x.error}`);
  const text = x.response.bodyText;
  if (x.response.status >= 400 && x.response.status <= 499)
    throw new StateRefused(
      `HTTP ${x.response.status} from the state endpoint${errorOf(text) ? `: ${errorOf(text)}` : ''}`,
    );
  if (x.response.status < 200 || x.response.status > 299)
    throw new Error(
      `Expected HTTP 2xx from the state endpoint ${url} for "${String(change.state)}", received HTTP ${x.response.status}`,
    );
  if (text.trim() === '') return {};
  const body = JSON.parse(text) as unknown;
  return isRecord(body) ? body : {};
}

/** Tokens and Basic values of the config, obtained once (fresh ones for the steps that consume them). */
class Credentials {
  readonly #cache = new Map<string, Promise<string>>();
  constructor(
    private readonly client: HttpClient,
    private readonly config: ResolvedConfig,
    private readonly learn: (secret: string) => void,
  ) {}

  #once(key: string, make: () => Promise<string>): Promise<string> {
    let v = this.#cache.get(key);
    if (!v) {
      v = make().then((s) => {
        this.learn(s);
        return s;
      });
      this.#cache.set(key, v);
    }
    return v;
  }

  main(): Promise<string> {
    return this.#once('main', () => obtainToken(this.client, this.config.credentials));
  }

  /** The `user` credential's token (as the accounts, patients and contracts suites use), else the run's. */
  user(): Promise<string> {
    const user = this.config.named.user;
    return user ? this.#once('user', () => obtainToken(this.client, user)) : this.main();
  }

  /** A fresh user access token, for logout and revoke (they consume it). */
  async freshUser(): Promise<string> {
    const user = this.config.named.user ?? this.config.credentials;
    const tokens = await obtainTokens(this.client, user);
    this.learn(tokens.access);
    return tokens.access;
  }

  basic(): string | undefined {
    const b = this.config.basic.client;
    return b ? Buffer.from(`${b.clientId}:${b.clientSecret}`).toString('base64') : undefined;
  }

  /** A diary token from the configured valid code (fixture diary.validCode), as the diary suite gets one. */
  diary(postAuthUrl: string | undefined): Promise<string> {
    return this.#once('diary', async () => {
      const code = this.config.fixtures.diary?.validCode;
      if (!code || !postAuthUrl) return CREDENTIAL_PLACEHOLDER;
      const boundary = 'conformance-diary-boundary';
      const x = await this.client.send({
        method: 'POST',
        url: postAuthUrl,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: `--${boundary}\r\nContent-Disposition: form-data; name="Code"\r\n\r\n${code}\r\n--${boundary}--\r\n`,
      });
      let body: { access_token?: unknown } = {};
      try {
        body = JSON.parse(x.response?.bodyText ?? '{}') as { access_token?: unknown };
      } catch {
        // no token in it: the placeholder below
      }
      return typeof body.access_token === 'string' ? body.access_token : CREDENTIAL_PLACEHOLDER;
    });
  }
}

const TOKEN_OF_USER: ReadonlySet<ServiceId> = new Set(['accounts', 'patients', 'contracts']);

/** Credentials, site, body encoding and the target's address, for one request of the Verifier. */
async function prepareRequest(
  req: FilterRequest,
  ctx: {
    config: ResolvedConfig;
    addresses: Map<string, URL>;
    credentials: Credentials;
    current: Record<string, string>;
  },
): Promise<void> {
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
  );
  let body = bodyText(req);
  const resolved = resolveRequest(req.method, req.url, headers, body);
  if (!resolved) return;
  const op = resolved.operation;
  const set = (name: string, value: string) => {
    req.headers[name.toLowerCase()] = value;
  };
  const auth = op.headers.find((h) => h.name === 'Authorization')?.value ?? '';
  if (op.id === 'logout') set('Authorization', `Bearer ${await ctx.credentials.freshUser()}`);
  else if (auth === 'Bearer {diaryToken}') {
    const postAuth = ctx.addresses.get('diary-post-auth');
    set(
      'Authorization',
      `Bearer ${await ctx.credentials.diary(postAuth ? `${postAuth}${operationSuffix('diary-post-auth')}` : undefined)}`,
    );
  } else if (auth === 'Basic {basic}') {
    const basic = ctx.credentials.basic();
    if (basic) set('Authorization', `Basic ${basic}`);
  } else if (auth.startsWith('Bearer')) {
    const user = TOKEN_OF_USER.has(op.service) || op.id === 'get-user-details';
    set('Authorization', `Bearer ${user ? await ctx.credentials.user() : await ctx.credentials.main()}`);
  }
  if (headers['su-siteid'] !== undefined) set('SU-SiteId', ctx.config.siteId);
  if (op.id === 'revoke-token' && body !== undefined) {
    const form = new URLSearchParams(body);
    form.set('token', await ctx.credentials.freshUser());
    body = form.toString();
  }
  // Values Pact cannot inject (a multipart body): the state's values replace the examples.
  if (body !== undefined && (headers['content-type'] ?? '').startsWith('multipart/form-data')) {
    for (const [name, value] of Object.entries(ctx.current))
      body = body.replace(new RegExp(`(name="${name}"\\r\\n\\r\\n)[^\\r]*`), `$1${value}`);
  }
  if (body !== undefined) {
    const buffer = Buffer.from(body, 'utf8');
    req.body = buffer;
    set('Content-Length', String(buffer.length));
  }
  // The reference address becomes the target's discovered one; the rest of the path and the query
  // stay. A base the pact's path carries before the address (a gateway prefix) is the pact's
  // provider's: the target's own base is in its discovered address.
  const discovered = ctx.addresses.get(op.id);
  if (discovered) {
    const url = new URL(resolved.path, 'http://reference.invalid');
    const reference = referenceAddressOf(op.service, op.discoveryKey);
    const rest = url.pathname.startsWith(reference) ? url.pathname.slice(reference.length) : '';
    req.url = `${discovered.pathname.replace(/\/+$/, '')}${rest}${url.search}`;
  }
}

/** The path suffix of an operation without parameters (diary post-auth). */
const operationSuffix = (id: string): string => operations.find((o) => o.id === id)?.pathSuffix ?? '';
