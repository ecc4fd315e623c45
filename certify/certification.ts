/**
 * `conformance certify-client`: one workspace per scenario (certify/workspace.ts), the partner's
 * client runs the scenarios against them, and every request it made is judged against the
 * documents (app/judgeClientRequest.ts: headers, `|`, reserved and deprecated operations; the
 * discovered addresses), every flow by its scenario's checks, into the same sealed report folder,
 * verdict words and exit codes as a server run, counting the client's requirement rows. A
 * browser's CORS preflight is judged on its address alone: it is no request of an operation, and
 * no part of a flow.
 */
import { writeSealedReport } from '../app/sealedReport.ts';
import { judge, judgeClientRequest } from '../app/judgeClientRequest.ts';
import type { RunOutcome } from '../app/runConformance.ts';
import { clientAuthenticatesAsClient, clientReadsDiscovery, clientUsesDiscoveredAddress } from '../checks/index.ts';
import { answerCode, type ClientExchange, isPreflight } from '../core/clientRequest.ts';
import { SCENARIO_COMPLETED, SCENARIO_FLOW_REACHED, SCENARIO_SELECTED } from '../core/decidedOutcomes.ts';
import type { WorkerResult } from '../core/events.ts';
import type { Exchange } from '../core/exchange.ts';
import { Redactor } from '../core/redact.ts';
import type { Attestation, ExchangeRecord } from '../core/results.ts';
import { suiteVersion } from '../core/suiteVersion.ts';
import { resolveOperation } from '../pacts/resolveOperation.ts';
import type { ServedExchange } from '../server/http.ts';
import { DISCOVERY_PATHS } from '../server/router/addresses.ts';
import { operations } from '../spec/operations.ts';
import type { ServiceId } from '../spec/types.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { methodsAt } from './cors.ts';
import { isOperatorOnly, type Scenario, SCENARIOS } from './scenarios.ts';
import { startWorkspace, type Workspace } from './workspace.ts';

/** Results of a request at no address of the documents are filed under this name. */
export const NOT_DISCOVERED = '(no discovered address)';

export type Ending = 'completed' | 'stopped' | 'timed-out';

export interface ScenarioRun {
  scenario: Scenario;
  workspace: Workspace;
  ending?: Ending;
}

export interface CertificationOptions {
  /** Scenario ids (default: every scenario the client may run: defaultScenarios). */
  scenarios?: readonly string[];
  /** The client is one of the operator's own products: by default it runs the operator-only scenarios too. */
  operatorProduct?: boolean;
  host?: string;
}

export interface Certification {
  runs: readonly ScenarioRun[];
  /**
   * Waits until every scenario is complete (and its client then quiet for `quietMs`, a grace period
   * in which late calls are still recorded and judged), stopped where it may, or past its time-out.
   */
  wait(timeoutMs: number, quietMs?: number): Promise<void>;
  /** Judges what the client did and writes the sealed report folder; `attestation` names the client (config `attestation`). */
  finish(options: {
    reportDir: string;
    operatorProduct?: boolean;
    timeoutMs: number;
    /** How long the client had, when the wait was ended before the time-out (a workspace finished by hand). */
    waitedMs?: number;
    attestation?: Attestation;
  }): Promise<RunOutcome>;
  close(): Promise<void>;
}

export class UnknownScenarioError extends Error {}

/** The workspace's own routes: the discovery documents and the token endpoint. */
const OWN_ROUTES_AND_TOKEN = new Set<string>([...Object.values(DISCOVERY_PATHS), '/oauth/token']);

/** A served exchange as the client checks see it, its operation resolved by address, method and version. */
export function clientExchangeOf(x: ServedExchange): ClientExchange {
  const [rawPath, rawQuery = ''] = x.rawUrl.split(/\?(.*)/s, 2);
  const headers = Object.fromEntries(
    Object.entries(x.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, v]])),
  ) as Record<string, string>;
  const at = `${x.path}${rawQuery ? `?${rawQuery}` : ''}`;
  if (isPreflight(x.method, headers)) {
    // A preflight names its method, not its operation: that method's operation at the address,
    // else any operation served there (the request that follows is judged on its own).
    const asked = (headers['access-control-request-method'] ?? '').trim().toUpperCase();
    const operation =
      x.path === undefined
        ? undefined
        : [asked, ...methodsAt(x.path)].map((m) => resolveOperation(m, at, headers)).find((o) => o !== undefined);
    return {
      method: x.method,
      rawPath,
      rawQuery,
      headers,
      status: x.status,
      preflight: { method: asked, ...(operation ? { operation } : {}) },
      ...(x.path !== undefined && OWN_ROUTES_AND_TOKEN.has(x.path) ? { own: true } : {}),
    };
  }
  const operation =
    x.path === undefined || x.operations.length === 0 ? undefined : resolveOperation(x.method, at, headers, x.body);
  // A request at a served address with a method no operation there has (a plain OPTIONS): at a
  // discovered address all the same, though of no operation.
  const servedAt = operation === undefined && x.path !== undefined ? methodsAt(x.path) : [];
  return {
    ...(operation ? { operation } : {}),
    ...(servedAt.length > 0 ? { servedMethods: servedAt } : {}),
    method: x.method,
    rawPath,
    rawQuery,
    headers,
    ...(x.body !== '' ? { body: x.body } : {}),
    status: x.status,
    ...(x.responseBody !== undefined ? { responseBody: x.responseBody } : {}),
    ...(x.path !== undefined && OWN_ROUTES_AND_TOKEN.has(x.path) ? { own: true } : {}),
  };
}

/** The client's own requests, as its flows see them: a browser's CORS preflights left out. */
export const requestsOf = (served: readonly ServedExchange[]): ClientExchange[] =>
  served.map(clientExchangeOf).filter((x) => !x.preflight);

function quietFor(run: ScenarioRun): number {
  const last = run.workspace.exchanges.at(-1);
  return last ? Date.now() - Date.parse(last.at) : Number.POSITIVE_INFINITY;
}

/**
 * How a scenario has ended by now, if it has: its client completed it, or stopped where the
 * scenario allows and then sent nothing for `quietMs`. (Its time-out is the waiter's to judge.)
 */
export function scenarioEnding(run: ScenarioRun, quietMs: number): Exclude<Ending, 'timed-out'> | undefined {
  const xs = requestsOf(run.workspace.exchanges);
  if (run.scenario.complete(xs)) return 'completed';
  if (run.scenario.mayStop?.(xs) && quietFor(run) >= quietMs) return 'stopped';
  return undefined;
}

/**
 * How a scenario has ended, settled: as `scenarioEnding`, except that a completed scenario stays
 * open a grace period (its client quiet for `quietMs`), so that late calls are recorded and judged.
 */
export function settledEnding(run: ScenarioRun, quietMs: number): Exclude<Ending, 'timed-out'> | undefined {
  const ending = scenarioEnding(run, quietMs);
  return ending === 'completed' && quietFor(run) < quietMs ? undefined : ending;
}

/** The scenarios a certification runs when none is named: for a partner's client, only those it may call. */
export function defaultScenarios(operatorProduct: boolean): string[] {
  return SCENARIOS.filter((s) => operatorProduct || !isOperatorOnly(s)).map((s) => s.id);
}

export async function startCertification(options: CertificationOptions = {}): Promise<Certification> {
  const ids = options.scenarios ?? defaultScenarios(options.operatorProduct === true);
  const unknown = ids.filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown.length > 0)
    throw new UnknownScenarioError(
      `Unknown scenario ${unknown[0]} (scenarios: ${SCENARIOS.map((s) => s.id).join(', ')})`,
    );
  const chosen = SCENARIOS.filter((s) => ids.includes(s.id));
  const runs: ScenarioRun[] = await Promise.all(
    chosen.map(async (scenario) => ({
      scenario,
      workspace: await startWorkspace({
        scenario: scenario.id,
        ...(scenario.modifiers ? { modifiers: scenario.modifiers() } : {}),
        ...(options.host ? { host: options.host } : {}),
      }),
    })),
  );
  const startedAt = new Date().toISOString();

  const waitFor = (run: ScenarioRun, timeoutMs: number, quietMs: number) =>
    new Promise<void>((done) => {
      const settle = (ending: Ending) => {
        if (run.ending) return;
        run.ending = ending;
        clearInterval(timer);
        done();
      };
      const look = () => {
        const ending = settledEnding(run, quietMs);
        if (ending) settle(ending);
        // At the time-out a client that completed or stopped where the scenario allows has done
        // so, however recently it last called (a busy machine may have kept it until then).
        else if (Date.now() - Date.parse(startedAt) >= timeoutMs) settle(scenarioEnding(run, 0) ?? 'timed-out');
      };
      // Polled as well as told: a client that stops sends nothing more to be told about.
      const timer = setInterval(look, 100);
      run.workspace.onExchange(look);
      look();
    });

  return {
    runs,
    wait: async (timeoutMs, quietMs = 2000) => {
      await Promise.all(runs.map((r) => waitFor(r, timeoutMs, quietMs)));
    },
    finish: async ({ reportDir, operatorProduct = false, timeoutMs, waitedMs, attestation = {} }) => {
      const endedEarly = waitedMs !== undefined && waitedMs < timeoutMs;
      const secrets = runs.map((r) => r.workspace.config.clientSecret);
      const redactor = Redactor.forRun({ secrets, evidence: 'masked', fixtures: {} });
      const records = new Map<string, ExchangeRecord>();
      const results: WorkerResult[] = [];
      for (const run of runs) {
        const test = `scenario ${run.scenario.id}`;
        const served = run.workspace.exchanges;
        const xs = served.map(clientExchangeOf);
        const { clientId, clientSecret } = run.workspace.config;
        // What the client had learnt before each request: the discovery documents it fetched, the tokens it was issued.
        const fetched = new Set<ServiceId>();
        const issuedTokens: string[] = [];
        xs.forEach((x, i) => {
          const id = `${run.workspace.config.clientId}-${i}`;
          records.set(id, redactor.exchange(exchangeOf(id, served[i], x)));
          const addressed = x.operation ?? x.preflight?.operation;
          const bind = (j: ReturnType<typeof judge>): WorkerResult => ({
            ...j,
            operation: addressed?.id ?? NOT_DISCOVERED,
            exchange: id,
            test,
          });
          const discoveryRows = loadRequirements('client').filter(
            (r) => /discovery document/.test(r.text) && (!addressed || r.operations.includes(addressed.id)),
          );
          if (!x.own)
            results.push(
              bind(
                judge(
                  clientUsesDiscoveredAddress,
                  x,
                  'MUST',
                  discoveryRows.map((r) => r.id),
                ),
              ),
            );
          // A preflight is the browser's: it is not judged as a request of the operation.
          if (x.operation) {
            results.push(...judgeClientRequest({ ...x, operation: x.operation }, { operatorProduct }).map(bind));
            results.push(
              bind(
                judge(
                  clientReadsDiscovery,
                  { request: x, fetched },
                  'MUST',
                  discoveryRows.map((r) => r.id),
                ),
              ),
            );
            const asClient = clientCredentialRows(x.operation.id);
            if (asClient.length > 0)
              results.push(
                bind(
                  judge(
                    clientAuthenticatesAsClient,
                    { request: x, client: { id: clientId, secret: clientSecret }, issuedTokens },
                    'MUST',
                    asClient,
                  ),
                ),
              );
          }
          learn(x, served[i], fetched, issuedTokens);
        });
        const requests = xs.filter((x) => !x.preflight);
        // A wait ended early (Ctrl-C, "Finish and judge") judges how the scenario stands now.
        const ending = run.ending ?? scenarioEnding(run, 0) ?? 'timed-out';
        for (const f of run.scenario.flow) {
          const judged = judge(f.check, requests, f.level, f.requirements);
          // A flow the client's allowed stop left unreached is left out by its choice, not wanting.
          if (ending === 'stopped' && judged.status === 'skip')
            results.push({
              check: SCENARIO_FLOW_REACHED.id,
              summary: SCENARIO_FLOW_REACHED.summary,
              operation: f.operation,
              requirements: f.requirements,
              level: f.level,
              status: 'omit',
              message: `Not judged: the client stopped where the scenario allows it to, before this flow (${f.check.id}: ${judged.message})`,
              test,
            });
          else results.push({ ...judged, operation: f.operation, test });
        }
        results.push({
          check: SCENARIO_COMPLETED.id,
          summary: SCENARIO_COMPLETED.summary,
          operation: run.scenario.operations[0],
          requirements: [],
          level: 'MUST',
          status: ending === 'timed-out' ? 'error' : 'pass',
          message:
            ending === 'completed'
              ? `${run.scenario.title}: completed (${xs.length} requests)`
              : ending === 'stopped'
                ? `${run.scenario.title}: the client stopped where the scenario allows it to (${xs.length} requests)`
                : `Expected the client to run "${run.scenario.title}" ${endedEarly ? `before the workspace was finished (after ${Math.round(waitedMs / 1000)} of ${Math.round(timeoutMs / 1000)} s)` : `within ${Math.round(timeoutMs / 1000)} s`}, received ${xs.length} request(s) and no end: your client never made ${run.scenario.waitingFor}${lastRequest(xs)}${mustFailed(results, test) ? '; the workspace answered as the documents have it a request that breaks a MUST (the failures of this scenario say which)' : ''}`,
          test,
        });
      }
      const inScope = new Set<string>(runs.flatMap((r) => r.scenario.operations));
      // A flow only an unselected scenario judges is left out by the user's choice, not wanting.
      const selected = new Set(runs.map((r) => r.scenario.id));
      const judgedHere = new Set(runs.flatMap((r) => r.scenario.flow.flatMap((f) => f.requirements)));
      for (const other of SCENARIOS.filter((s) => !selected.has(s.id)))
        for (const f of other.flow.filter((f) => inScope.has(f.operation)))
          if (f.requirements.some((id) => !judgedHere.has(id)))
            results.push({
              check: SCENARIO_SELECTED.id,
              summary: SCENARIO_SELECTED.summary,
              operation: f.operation,
              requirements: f.requirements.filter((id) => !judgedHere.has(id)),
              level: f.level,
              status: 'omit',
              message: `Not judged: scenario ${other.id} was not selected (${f.check.id})`,
            });
      return writeSealedReport(reportDir, {
        suite: suiteVersion(),
        target: `certify-client: ${runs.map((r) => r.scenario.id).join(', ')}`,
        configDigest: '',
        attestation,
        evidence: 'masked',
        seed: 0,
        runs: 0,
        allowDestructive: true,
        startedAt,
        finishedAt: new Date().toISOString(),
        operations: operations.filter((o) => inScope.has(o.id)).map((o) => o.id),
        events: [],
        runnerExchanges: records,
        runnerResults: results,
        party: 'client',
      });
    },
    close: async () => {
      await Promise.all(runs.map((r) => r.workspace.close()));
    },
  };
}

function exchangeOf(id: string, served: ServedExchange, x: ClientExchange): Exchange {
  const headers = Object.fromEntries(
    Object.entries(served.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, v]])),
  ) as Record<string, string>;
  const body = served.responseBody ?? '';
  const addressed = x.operation ?? x.preflight?.operation;
  return {
    id,
    ...(addressed ? { operation: addressed.id } : {}),
    startedAt: served.at,
    durationMs: 0,
    request: {
      method: served.method,
      url: served.rawUrl,
      headers,
      ...(served.body !== '' ? { body: served.body } : {}),
    },
    response: {
      status: served.status,
      headers: served.responseHeaders,
      bodyText: body,
      size: Buffer.byteLength(body),
      truncated: false,
    },
  };
}

/** The discovery path of each service, for knowing which document a request fetched. */
const SERVICE_OF_DISCOVERY = new Map<string, ServiceId>(
  Object.entries(DISCOVERY_PATHS).map(([service, path]) => [path, service as ServiceId]),
);

/**
 * What a request taught its client: a discovery document it was answered (the services whose
 * addresses it can have read), the tokens the token endpoint issued it.
 */
function learn(x: ClientExchange, served: ServedExchange, fetched: Set<ServiceId>, issuedTokens: string[]): void {
  if (!x.own || x.preflight || served.path === undefined) return;
  const service = SERVICE_OF_DISCOVERY.get(served.path);
  if (service && x.method === 'GET' && (x.status === 200 || x.status === 304)) fetched.add(service);
  if (served.path === '/oauth/token' && x.status === 200) {
    try {
      const answer = JSON.parse(x.responseBody ?? '') as Record<string, unknown>;
      for (const key of ['access_token', 'refresh_token'])
        if (typeof answer[key] === 'string') issuedTokens.push(answer[key] as string);
    } catch {
      // not JSON: no token issued
    }
  }
}

/**
 * The client rows of an operation that name the client's own credentials as its Basic
 * authentication (D3-5-12: "`Authorization: Basic <BASE64(client_id:client_secret)>`").
 */
function clientCredentialRows(operation: string): string[] {
  return loadRequirements('client')
    .filter((r) => r.operations.includes(operation) && r.text.includes('BASE64(client_id:client_secret)'))
    .map((r) => r.id);
}

/** `; its last request, GET /x, was answered 400 MSG_X`: where the client's flow ended. */
function lastRequest(xs: readonly ClientExchange[]): string {
  const last = [...xs].reverse().find((x) => !x.own && !x.preflight);
  if (!last) return '';
  const code = answerCode(last);
  return `; its last request of an operation, ${last.method} ${last.rawPath}, was answered ${last.status}${code ? ` ${code}` : ''}`;
}

/** True when a result of the scenario's test is a MUST failure. */
const mustFailed = (results: readonly WorkerResult[], test: string): boolean =>
  results.some((r) => r.test === test && r.level === 'MUST' && r.status === 'fail');
