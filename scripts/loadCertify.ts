/**
 * The load script of client certification (issue 13 item 5): several partners certify at once
 * against workspaces of their own, and the sandbox holds. `npx tsx scripts/loadCertify.ts
 * [--clients 50] [--seconds 30] [--workspaces 5] [--race 20] [--seed 1]` starts the workspaces in
 * this process on 127.0.0.1 (loopback only), drives the clients for the given time with a mix of
 * the documents' flows, then runs the races and verifies every write, and prints figures.
 *
 * Figures only for the timings (these machines are shared and noisy); what it does judge are the
 * invariants: no 5xx, no lost or duplicated write, one winner per race, isolation between the
 * workspaces. Exit code 1 when one of them is broken, 0 otherwise. Bounded: every request stops at
 * the hard stop (the load time plus 30 s), and every workspace is closed.
 */
import { answerCode, jsonOf } from '../core/clientRequest.ts';
import { setMaxListeners } from 'node:events';
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { startWorkspace, type Workspace } from '../certify/workspace.ts';
import type { ActiveModifiers } from '../server/router/types.ts';

export interface LoadOptions {
  /** Concurrent clients, spread over the workspaces (default 50). */
  clients?: number;
  /** How long the mix runs (default 30). */
  seconds?: number;
  /**
   * Steps each client takes at least, however long they take (default 0): the clients' choices
   * follow the seed, so a test that needs some of each kind of step gets them on a busy machine too.
   */
  minSteps?: number;
  /** Workspaces, one per partner (default 5). */
  workspaces?: number;
  /** Contenders of each race (default 20). */
  raceSize?: number;
  /** Seed of the clients' choices, so a run can be replayed. */
  seed?: number;
  /** Seconds after the load time at which everything still running is aborted (default 30). */
  graceSeconds?: number;
  /** Answers of every workspace beyond the reference behaviour: the self-test breaks a rule to prove it is caught. */
  modifiers?: () => ActiveModifiers;
}

export interface OperationFigures {
  requests: number;
  p50: number;
  p95: number;
  statuses: Record<string, number>;
}

export interface RaceFigures {
  kind: 'ack-batch' | 'delete-patient';
  workspace: number;
  /** The batch or patient id raced for. */
  target: string;
  contenders: number;
  /** Answers 2xx. */
  winners: number;
  /** The documented refusal (404: InvalidId for a batch, MSG_ENTITY_NOT_FOUND_IN_DATABASE for a patient). */
  refusals: number;
  /** Any other answer, or none. */
  others: number;
  /** After the race, the batch or patient is gone (404). */
  gone: boolean;
}

export interface LoadFigures {
  clients: number;
  seconds: number;
  workspaces: number;
  /** Wall time of the load phase alone (races and verification excluded). */
  loadMs: number;
  /** Every request: load, races, verification and isolation probes. */
  requests: number;
  /** Requests of the load phase per second of it. */
  requestsPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  statusClasses: Record<'2xx' | '3xx' | '4xx' | '5xx', number>;
  serverErrors: number;
  transportErrors: number;
  /** Answers other than the documented one for the request (a 4xx where a 200 was due, ...). */
  unexpectedAnswers: number;
  /** A few of them, to start from. */
  unexpectedSamples: string[];
  operations: Record<string, OperationFigures>;
  writes: {
    created: number;
    updated: number;
    deleted: number;
    /** Patients read back after the run with the data last acknowledged. */
    verifiedPresent: number;
    /** Deleted patients read back after the run as gone. */
    verifiedGone: number;
    /** Acknowledged patients missing or with other data, and deleted ones still there. */
    lost: number;
    /** Two creates answered with the same id in one workspace. */
    duplicated: number;
    /** Reads during the load that did not return the data last acknowledged. */
    staleReads: number;
    /** Writes that received no answer (transport error): their outcome is unknown, not verified. */
    uncertain: number;
  };
  races: RaceFigures[];
  oneWinnerPerRace: boolean;
  isolation: {
    /** Requests recorded by a workspace that another workspace's client sent. */
    foreignRequests: number;
    /** Requests recorded by a workspace that no client of this script sent. */
    untaggedRequests: number;
    /** Difference between the requests answered by each workspace and those it recorded. */
    unrecordedRequests: number;
    crossCredentialsRefused: number;
    crossCredentialsAccepted: number;
    crossTokensRefused: number;
    crossTokensAccepted: number;
    held: boolean;
  };
  /** The hard stop aborted the run. */
  hardStopped: boolean;
  /** Every invariant holds. */
  ok: boolean;
}

const FORM = 'application/x-www-form-urlencoded';
const FHIR = 'application/fhir+json';
/** Tags every request with the workspace and client that sent it, so isolation can be checked from the records. */
const TAG_HEADER = 'x-load-client';
const PROBE_TAG = 'probe';

/** Find Member v2 demo data (server/demo-config.json fixtures.findMemberV2). */
const MEMBER_SINGLE = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
const MEMBER_NONE = { insurerIdentifier: 'ppp', firstInitial: 'Z', lastName: 'Nobody', dateOfBirth: '1900-01-01' };
const MEMBER_MULTIPLE = { insurerIdentifier: 'nuh', firstInitial: 'A', lastName: 'Jones', dateOfBirth: '1975-09-30' };
const MEMBER_REFINE = { sex: 'Female', postCode: 'AB1 2CD', policyActiveOn: '2026-06-01' };
const MEMBER_STILL_MULTIPLE = {
  insurerIdentifier: 'wpa',
  firstInitial: 'M',
  lastName: 'Brown',
  dateOfBirth: '1990-01-15',
  sex: 'Male',
  postCode: 'LS1 4AP',
  policyActiveOn: '2026-06-01',
};
const SERVICES = ['membership', 'claims', 'reference', 'patients', 'contracts'] as const;
const INSURER_EXTENSION = 'https://sandbox.example/ref/extension/patient/insurer';

type PatientBody = Record<string, unknown>;

interface Answer {
  status: number;
  text: string;
}

/** A seeded generator (mulberry32): the same seed replays the same choices. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 10) / 10;
}

const parse = jsonOf;

/** The first error code of an answer, read by the one reader (core/readers/errorCode.ts). */
function errorCodeOf(text: string): string | undefined {
  return answerCode({ responseBody: text });
}

/** Every field the client sent is stored as sent (the sandbox adds id, active, deceasedBoolean). */
function holdsData(stored: unknown, sent: PatientBody): boolean {
  if (typeof stored !== 'object' || stored === null) return false;
  const s = stored as Record<string, unknown>;
  return Object.entries(sent).every(([k, v]) => JSON.stringify(s[k]) === JSON.stringify(v));
}

/** Counters shared by every client; latencies of the load phase kept apart for requests/s. */
class Recorder {
  requests = 0;
  loadRequests = 0;
  readonly latencies: number[] = [];
  readonly statusClasses: Record<'2xx' | '3xx' | '4xx' | '5xx', number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  transportErrors = 0;
  unexpected = 0;
  readonly samples: string[] = [];
  readonly byOperation = new Map<string, { latencies: number[]; statuses: Record<string, number> }>();
  /** Requests answered, per workspace (the isolation check compares them with the records). */
  readonly answeredBy: number[];
  inLoad = true;

  constructor(workspaces: number) {
    this.answeredBy = Array.from({ length: workspaces }, () => 0);
  }

  unexpectedAnswer(line: string): void {
    this.unexpected++;
    if (this.samples.length < 10) this.samples.push(line);
  }
}

/** One HTTP request over the shared agent: timed, counted, never thrown (undefined when no answer). */
async function call(
  ctx: { agent: Agent; recorder: Recorder; signal: AbortSignal },
  target: { workspace: number; tag: string },
  operation: string,
  url: string,
  init: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; headers?: Record<string, string>; body?: string },
  expected: readonly number[],
): Promise<Answer | undefined> {
  const { recorder } = ctx;
  const started = performance.now();
  recorder.requests++;
  if (recorder.inLoad) recorder.loadRequests++;
  let op = recorder.byOperation.get(operation);
  if (!op) {
    op = { latencies: [], statuses: {} };
    recorder.byOperation.set(operation, op);
  }
  try {
    const res = await request(url, {
      method: init.method ?? 'GET',
      headers: { [TAG_HEADER]: target.tag, ...init.headers },
      body: init.body,
      dispatcher: ctx.agent,
      signal: ctx.signal,
    });
    const text = await res.body.text();
    const ms = performance.now() - started;
    recorder.latencies.push(ms);
    op.latencies.push(ms);
    const status = res.statusCode;
    op.statuses[status] = (op.statuses[status] ?? 0) + 1;
    const cls = `${Math.floor(status / 100)}xx`;
    if (cls === '2xx' || cls === '3xx' || cls === '4xx' || cls === '5xx') recorder.statusClasses[cls]++;
    recorder.answeredBy[target.workspace]++;
    if (!expected.includes(status))
      recorder.unexpectedAnswer(
        `${operation}: Expected ${expected.join(' or ')}, received ${status} ${text.slice(0, 160)} (${init.method ?? 'GET'} ${url})`,
      );
    return { status, text };
  } catch (error) {
    recorder.transportErrors++;
    if (!ctx.signal.aborted)
      recorder.unexpectedAnswer(
        `${operation}: no answer (${(error as Error).message}) (${init.method ?? 'GET'} ${url})`,
      );
    return undefined;
  }
}

/** A patient a client created, with what it last had acknowledged. */
interface OwnPatient {
  id: string;
  body: PatientBody;
  state: 'live' | 'deleted' | 'uncertain';
}

/** What the clients of one workspace share: the partner's configuration, its addresses and its created ids. */
interface WorkspaceRun {
  index: number;
  workspace: Workspace;
  addresses: Record<string, string>;
  /** Ids answered to creates, to spot an id answered twice. */
  createdIds: Set<string>;
  duplicated: number;
  clients: LoadClient[];
}

class LoadClient {
  clientToken = '';
  userToken = '';
  readonly patients: OwnPatient[] = [];
  readonly tag: string;
  #seq = 0;
  readonly counts = { created: 0, updated: 0, deleted: 0, staleReads: 0, uncertain: 0 };

  constructor(
    readonly ws: WorkspaceRun,
    readonly index: number,
    readonly rnd: () => number,
    readonly ctx: { agent: Agent; recorder: Recorder; signal: AbortSignal },
  ) {
    this.tag = `${ws.index}/${index}`;
  }

  get #target() {
    return { workspace: this.ws.index, tag: this.tag };
  }

  get #config() {
    return this.ws.workspace.config;
  }

  #pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)];
  }

  async token(grant: 'client_credentials' | 'password'): Promise<void> {
    const c = this.#config;
    const fields: Record<string, string> = { grant_type: grant, client_id: c.clientId, client_secret: c.clientSecret };
    if (grant === 'password') Object.assign(fields, { username: c.user.username, password: c.user.password });
    const a = await call(
      this.ctx,
      this.#target,
      `token (${grant})`,
      c.tokenUrl,
      { method: 'POST', headers: { 'content-type': FORM }, body: new URLSearchParams(fields).toString() },
      [200],
    );
    const token = (parse(a?.text ?? '') as { access_token?: string } | undefined)?.access_token;
    if (a?.status !== 200 || !token) return;
    if (grant === 'password') this.userToken = token;
    else this.clientToken = token;
  }

  async discovery(service: (typeof SERVICES)[number]): Promise<void> {
    await call(this.ctx, this.#target, 'discovery', this.#config.discovery[service], {}, [200]);
  }

  #clearing(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.clientToken}`, 'su-siteid': this.#config.siteId, ...extra };
  }

  #patientHeaders(): Record<string, string> {
    return {
      authorization: `Bearer ${this.userToken}`,
      'su-siteid': this.#config.siteId,
      'svc-api-version': '1',
      'content-type': FHIR,
    };
  }

  #findMember(operation: string, fields: Record<string, string>, expected: readonly number[]) {
    return call(
      this.ctx,
      this.#target,
      operation,
      this.ws.addresses.find_member_endpoint,
      {
        method: 'POST',
        headers: this.#clearing({ 'content-type': FORM, 'svc-api-version': '2' }),
        body: new URLSearchParams(fields).toString(),
      },
      expected,
    );
  }

  async findMember(): Promise<void> {
    const r = this.rnd();
    if (r < 0.4) await this.#findMember('find member (single)', MEMBER_SINGLE, [200]);
    else if (r < 0.6) await this.#findMember('find member (none)', MEMBER_NONE, [400]);
    else if (r < 0.9) {
      // The documents' two steps: refine only after MULTIPLE_MATCH_FOUND.
      const first = await this.#findMember('find member (step 1)', MEMBER_MULTIPLE, [400]);
      if (first && errorCodeOf(first.text) === 'MULTIPLE_MATCH_FOUND')
        await this.#findMember('find member (step 2)', { ...MEMBER_MULTIPLE, ...MEMBER_REFINE }, [200]);
    } else await this.#findMember('find member (still several)', MEMBER_STILL_MULTIPLE, [400]);
  }

  async listBatches(): Promise<string[]> {
    const a = await call(
      this.ctx,
      this.#target,
      'list batches',
      this.ws.addresses.list_pending_remittances_endpoint,
      { headers: this.#clearing() },
      [200],
    );
    const body = parse(a?.text ?? '') as { entry?: { resource?: { id?: string } }[] } | undefined;
    return (body?.entry ?? []).flatMap((e) => (e.resource?.id ? [e.resource.id] : []));
  }

  async getBatch(): Promise<void> {
    // No batch is acknowledged during the load (the races do it), so every seed batch is pending.
    const id = this.#pick(['BATCH-1001', 'BATCH-1002', 'BATCH-1003', 'BATCH-1004', 'BATCH-1005', 'BATCH-1006']);
    await call(
      this.ctx,
      this.#target,
      'get batch',
      `${this.ws.addresses.get_remittance_details_endpoint}/${encodeURIComponent(id)}`,
      { headers: this.#clearing() },
      [200],
    );
  }

  #patientBody(version: number): PatientBody {
    this.#seq++;
    return {
      resourceType: 'Patient',
      extension: [{ url: INSURER_EXTENSION, valueString: this.#pick(['bup', 'ppp', 'nuh']) }],
      // A family name of its own: a patient read back with another client's data is caught.
      name: [{ family: `Load-${this.tag.replace('/', '-')}-${this.#seq}`, given: [`v${version}`], prefix: ['Ms'] }],
      gender: this.#pick(['female', 'male', 'other', 'unknown']),
      birthDate: `19${50 + Math.floor(this.rnd() * 50)}-0${1 + Math.floor(this.rnd() * 9)}-1${Math.floor(this.rnd() * 9)}`,
    };
  }

  async createPatient(): Promise<OwnPatient | undefined> {
    const body = this.#patientBody(1);
    const a = await call(
      this.ctx,
      this.#target,
      'create patient',
      this.ws.addresses.create_patient_endpoint,
      { method: 'POST', headers: this.#patientHeaders(), body: JSON.stringify(body) },
      [201],
    );
    const id = (parse(a?.text ?? '') as { id?: unknown } | undefined)?.id;
    if (a?.status !== 201 || typeof id !== 'string') return undefined;
    if (this.ws.createdIds.has(id)) this.ws.duplicated++;
    this.ws.createdIds.add(id);
    this.counts.created++;
    const own: OwnPatient = { id, body, state: 'live' };
    this.patients.push(own);
    return own;
  }

  #livePatient(): OwnPatient | undefined {
    const live = this.patients.filter((p) => p.state === 'live');
    return live.length === 0 ? undefined : this.#pick(live);
  }

  #patientUrl(key: 'get_patienet_endpoint' | 'delete_patient_endpoint' | 'update_patient_endpoint', id: string) {
    return `${this.ws.addresses[key]}/${encodeURIComponent(id)}`;
  }

  async readPatient(): Promise<void> {
    const p = this.#livePatient();
    if (!p) return void (await this.createPatient());
    const a = await call(
      this.ctx,
      this.#target,
      'get patient',
      this.#patientUrl('get_patienet_endpoint', p.id),
      { headers: this.#patientHeaders() },
      [200],
    );
    if (a && !(a.status === 200 && holdsData(parse(a.text), p.body))) this.counts.staleReads++;
  }

  async updatePatient(): Promise<void> {
    const p = this.#livePatient();
    if (!p) return void (await this.createPatient());
    const body = { ...this.#patientBody(2), id: p.id };
    const a = await call(
      this.ctx,
      this.#target,
      'update patient',
      this.#patientUrl('update_patient_endpoint', p.id),
      { method: 'PUT', headers: this.#patientHeaders(), body: JSON.stringify(body) },
      [200],
    );
    if (!a) p.state = 'uncertain';
    else if (a.status === 200) {
      p.body = body;
      this.counts.updated++;
    }
  }

  async deletePatient(): Promise<void> {
    const p = this.#livePatient();
    if (!p) return void (await this.createPatient());
    const a = await call(
      this.ctx,
      this.#target,
      'delete patient',
      this.#patientUrl('delete_patient_endpoint', p.id),
      { method: 'DELETE', headers: this.#patientHeaders() },
      [200],
    );
    if (!a) p.state = 'uncertain';
    else if (a.status === 200) {
      p.state = 'deleted';
      this.counts.deleted++;
    }
  }

  /** One step of the mix: weights roughly those of a partner's application in a working day. */
  async step(): Promise<void> {
    const r = this.rnd() * 100;
    if (r < 6) return this.token('client_credentials');
    if (r < 9) return this.token('password');
    if (r < 16) return this.discovery(this.#pick(SERVICES));
    if (r < 36) return this.findMember();
    if (r < 44) return void (await this.listBatches());
    if (r < 52) return this.getBatch();
    if (r < 68) return void (await this.createPatient());
    if (r < 82) return this.readPatient();
    if (r < 92) return this.updatePatient();
    return this.deletePatient();
  }

  /** After the run: every patient acknowledged is there with its data, every one deleted is gone. */
  async verify(): Promise<{ present: number; gone: number; lost: number; uncertain: number }> {
    const out = { present: 0, gone: 0, lost: 0, uncertain: 0 };
    for (const p of this.patients) {
      if (p.state === 'uncertain') {
        out.uncertain++;
        continue;
      }
      const a = await call(
        this.ctx,
        this.#target,
        'verify patient',
        this.#patientUrl('get_patienet_endpoint', p.id),
        { headers: this.#patientHeaders() },
        [p.state === 'live' ? 200 : 404],
      );
      if (!a) out.uncertain++;
      else if (p.state === 'live' && a.status === 200 && holdsData(parse(a.text), p.body)) out.present++;
      else if (p.state === 'deleted' && a.status === 404) out.gone++;
      else out.lost++;
    }
    return out;
  }
}

/** K contenders send the same DELETE at once: exactly one may win, the others get the documented 404. */
async function race(ws: WorkspaceRun, kind: RaceFigures['kind'], size: number): Promise<RaceFigures | undefined> {
  const owner = ws.clients[0];
  let target: string | undefined;
  let url: (c: LoadClient) => string;
  let headers: (c: LoadClient) => Record<string, string>;
  let refusal: string;
  if (kind === 'ack-batch') {
    target = (await owner.listBatches())[0];
    url = () => `${ws.addresses.ack_remittance_endpoint}/${encodeURIComponent(target ?? '')}`;
    headers = (c) => ({ authorization: `Bearer ${c.clientToken}`, 'su-siteid': ws.workspace.config.siteId });
    refusal = 'InvalidId';
  } else {
    target = (await owner.createPatient())?.id;
    url = () => `${ws.addresses.delete_patient_endpoint}/${encodeURIComponent(target ?? '')}`;
    headers = (c) => ({
      authorization: `Bearer ${c.userToken}`,
      'su-siteid': ws.workspace.config.siteId,
      'svc-api-version': '1',
      'content-type': FHIR,
    });
    refusal = 'MSG_ENTITY_NOT_FOUND_IN_DATABASE';
  }
  if (target === undefined) return undefined;
  // Every contender is one of the workspace's clients (with its own token), round robin.
  const contenders = Array.from({ length: size }, (_, k) => ws.clients[k % ws.clients.length]);
  const answers = await Promise.all(
    contenders.map((c) =>
      call(
        c.ctx,
        { workspace: ws.index, tag: c.tag },
        `race: ${kind}`,
        url(c),
        { method: 'DELETE', headers: headers(c) },
        [200, 404],
      ),
    ),
  );
  const winners = answers.filter((a) => a !== undefined && a.status >= 200 && a.status < 300).length;
  const refusals = answers.filter((a) => a?.status === 404 && errorCodeOf(a.text) === refusal).length;
  // The winner's effect: the batch or patient is gone afterwards.
  const after =
    kind === 'ack-batch'
      ? await call(
          owner.ctx,
          { workspace: ws.index, tag: owner.tag },
          'race: batch gone',
          `${ws.addresses.get_remittance_details_endpoint}/${encodeURIComponent(target)}`,
          { headers: headers(owner) },
          [404],
        )
      : await call(
          owner.ctx,
          { workspace: ws.index, tag: owner.tag },
          'race: patient gone',
          `${ws.addresses.get_patienet_endpoint}/${encodeURIComponent(target)}`,
          { headers: headers(owner) },
          [404],
        );
  if (kind === 'delete-patient') {
    const p = owner.patients.find((x) => x.id === target);
    if (p && winners === 1) p.state = 'deleted';
  }
  return {
    kind,
    workspace: ws.index,
    target,
    contenders: size,
    winners,
    refusals,
    others: size - winners - refusals,
    gone: after?.status === 404,
  };
}

/** Discovery addresses the clients use, read once per workspace (each client reads them again during the mix). */
async function addressesOf(ws: Workspace, agent: Agent, signal: AbortSignal): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const service of ['membership', 'claims', 'patients'] as const) {
    const res = await request(ws.config.discovery[service], {
      dispatcher: agent,
      signal,
      headers: { [TAG_HEADER]: PROBE_TAG },
    });
    Object.assign(out, (await res.body.json()) as Record<string, string>);
  }
  return out;
}

/** Runs the load and returns its figures; never throws for the sandbox's misbehaviour, only counts it. */
export async function runLoad(options: LoadOptions = {}): Promise<LoadFigures> {
  const clients = options.clients ?? 50;
  const seconds = options.seconds ?? 30;
  const minSteps = options.minSteps ?? 0;
  const workspaceCount = Math.max(1, Math.min(options.workspaces ?? 5, clients));
  const raceSize = options.raceSize ?? 20;
  const seed = options.seed ?? 1;
  const hardStop = new AbortController();
  // Every request in flight listens to the hard stop: more than the default ten at a time.
  setMaxListeners(0, hardStop.signal);
  const hardStopTimer = setTimeout(() => hardStop.abort(), (seconds + (options.graceSeconds ?? 30)) * 1000);
  // One keep-alive pool for every client, as many sockets as contenders at a time; bounded time-outs.
  const agent = new Agent({ keepAliveTimeout: 10_000, headersTimeout: 15_000, bodyTimeout: 15_000 });
  const recorder = new Recorder(workspaceCount);
  const ctx = { agent, recorder, signal: hardStop.signal };
  const started: Workspace[] = [];
  try {
    for (let w = 0; w < workspaceCount; w++)
      started.push(
        await startWorkspace({
          scenario: 'load',
          host: '127.0.0.1',
          ...(options.modifiers ? { modifiers: options.modifiers() } : {}),
        }),
      );
    const runs: WorkspaceRun[] = [];
    for (const [index, workspace] of started.entries())
      runs.push({
        index,
        workspace,
        addresses: await addressesOf(workspace, agent, hardStop.signal),
        createdIds: new Set(),
        duplicated: 0,
        clients: [],
      });
    // The discovery reads above are the script's own: the records are compared from here on.
    for (const r of runs) recorder.answeredBy[r.index] = r.workspace.exchanges.length;

    const all: LoadClient[] = [];
    for (let c = 0; c < clients; c++) {
      const ws = runs[c % workspaceCount];
      const client = new LoadClient(ws, ws.clients.length, random(seed * 7919 + c), ctx);
      ws.clients.push(client);
      all.push(client);
    }
    await Promise.all(all.map((c) => Promise.all([c.token('client_credentials'), c.token('password')])));

    const loadStart = performance.now();
    const loadEnd = loadStart + seconds * 1000;
    await Promise.all(
      all.map(async (c) => {
        for (let steps = 0; (performance.now() < loadEnd || steps < minSteps) && !hardStop.signal.aborted; steps++)
          await c.step();
      }),
    );
    const loadMs = performance.now() - loadStart;
    recorder.inLoad = false;

    // Races: in every workspace at once, one batch acknowledged and one patient deleted by K clients.
    const races = (
      await Promise.all(
        runs.map(async (ws) => [await race(ws, 'ack-batch', raceSize), await race(ws, 'delete-patient', raceSize)]),
      )
    )
      .flat()
      .filter((r): r is RaceFigures => r !== undefined);

    const verified = await Promise.all(all.map((c) => c.verify()));

    // Isolation: one workspace's credentials and tokens are refused by every other workspace.
    let crossCredentialsRefused = 0;
    let crossCredentialsAccepted = 0;
    let crossTokensRefused = 0;
    let crossTokensAccepted = 0;
    for (const from of runs)
      for (const to of runs) {
        if (from === to) continue;
        const probe = { workspace: to.index, tag: PROBE_TAG };
        const c = from.workspace.config;
        const token = await call(
          ctx,
          probe,
          'isolation: foreign credentials',
          to.workspace.config.tokenUrl,
          {
            method: 'POST',
            headers: { 'content-type': FORM },
            body: new URLSearchParams({
              grant_type: 'client_credentials',
              client_id: c.clientId,
              client_secret: c.clientSecret,
            }).toString(),
          },
          [400, 401],
        );
        if (token && token.status >= 400 && token.status < 500) crossCredentialsRefused++;
        else crossCredentialsAccepted++;
        const list = await call(
          ctx,
          probe,
          'isolation: foreign token',
          to.addresses.list_pending_remittances_endpoint,
          { headers: { authorization: `Bearer ${from.clients[0].clientToken}`, 'su-siteid': c.siteId } },
          [401],
        );
        if (list?.status === 401) crossTokensRefused++;
        else crossTokensAccepted++;
      }

    // Every request a workspace recorded came from its own clients (or this script's probes), inside its prefix.
    let foreignRequests = 0;
    let untaggedRequests = 0;
    let unrecordedRequests = 0;
    for (const ws of runs) {
      const prefix = new URL(ws.workspace.config.tokenUrl).pathname.replace(/\/oauth\/token$/, '');
      for (const x of ws.workspace.exchanges) {
        const tag = x.headers[TAG_HEADER];
        if (tag === undefined) untaggedRequests++;
        else if (tag !== PROBE_TAG && !tag.startsWith(`${ws.index}/`)) foreignRequests++;
        else if (!x.rawUrl.startsWith(`${prefix}/`)) foreignRequests++;
      }
      unrecordedRequests += Math.abs(recorder.answeredBy[ws.index] - ws.workspace.exchanges.length);
    }
    // A request aborted by the hard stop may or may not have been recorded: the comparison only holds without.
    if (recorder.transportErrors > 0) unrecordedRequests = 0;

    const sorted = [...recorder.latencies].sort((a, b) => a - b);
    const operations: Record<string, OperationFigures> = {};
    for (const [name, op] of [...recorder.byOperation].sort(([a], [b]) => a.localeCompare(b))) {
      const s = [...op.latencies].sort((a, b) => a - b);
      operations[name] = {
        requests: s.length,
        p50: percentile(s, 50),
        p95: percentile(s, 95),
        statuses: op.statuses,
      };
    }
    const sum = (f: (c: LoadClient) => number) => all.reduce((n, c) => n + f(c), 0);
    const writes = {
      created: sum((c) => c.counts.created),
      updated: sum((c) => c.counts.updated),
      deleted: sum((c) => c.counts.deleted),
      verifiedPresent: verified.reduce((n, v) => n + v.present, 0),
      verifiedGone: verified.reduce((n, v) => n + v.gone, 0),
      lost: verified.reduce((n, v) => n + v.lost, 0),
      duplicated: runs.reduce((n, r) => n + r.duplicated, 0),
      staleReads: sum((c) => c.counts.staleReads),
      uncertain: verified.reduce((n, v) => n + v.uncertain, 0),
    };
    const oneWinnerPerRace =
      races.length === 2 * workspaceCount && races.every((r) => r.winners === 1 && r.others === 0 && r.gone);
    const isolationHeld =
      foreignRequests === 0 &&
      untaggedRequests === 0 &&
      unrecordedRequests === 0 &&
      crossCredentialsAccepted === 0 &&
      crossTokensAccepted === 0;
    const hardStopped = hardStop.signal.aborted;
    return {
      clients,
      seconds,
      workspaces: workspaceCount,
      loadMs: Math.round(loadMs),
      requests: recorder.requests,
      requestsPerSecond: Math.round(recorder.loadRequests / (loadMs / 1000)),
      latencyMs: {
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: percentile(sorted, 100),
      },
      statusClasses: recorder.statusClasses,
      serverErrors: recorder.statusClasses['5xx'],
      transportErrors: recorder.transportErrors,
      unexpectedAnswers: recorder.unexpected,
      unexpectedSamples: recorder.samples,
      operations,
      writes,
      races,
      oneWinnerPerRace,
      isolation: {
        foreignRequests,
        untaggedRequests,
        unrecordedRequests,
        crossCredentialsRefused,
        crossCredentialsAccepted,
        crossTokensRefused,
        crossTokensAccepted,
        held: isolationHeld,
      },
      hardStopped,
      ok:
        !hardStopped &&
        recorder.statusClasses['5xx'] === 0 &&
        recorder.transportErrors === 0 &&
        recorder.unexpected === 0 &&
        writes.lost === 0 &&
        writes.duplicated === 0 &&
        writes.staleReads === 0 &&
        oneWinnerPerRace &&
        isolationHeld,
    };
  } finally {
    clearTimeout(hardStopTimer);
    await agent.close().catch(() => {});
    await Promise.all(started.map((w) => w.close().catch(() => {})));
  }
}

/** The one-line verdict the README quotes. */
export function verdictLine(f: LoadFigures): string {
  return [
    `${f.serverErrors} 5xx`,
    `${f.writes.lost} lost writes`,
    `${f.writes.duplicated} duplicated writes`,
    `${f.oneWinnerPerRace ? 'one winner in every race' : 'NOT one winner in every race'} (${f.races.length} races)`,
    f.isolation.held ? 'isolation held' : 'isolation BROKEN',
  ].join(', ');
}

/** The figures as a short table. */
export function formatFigures(f: LoadFigures): string {
  const pad = (s: string | number, n: number) => String(s).padEnd(n);
  const lines = [
    `certification load: ${f.workspaces} workspaces, ${f.clients} clients, ${f.seconds} s, node ${process.version}, ${cpus().length} CPUs, 127.0.0.1`,
    '',
    `${pad('requests', 20)}${f.requests} (${f.requestsPerSecond}/s during the load, ${(f.loadMs / 1000).toFixed(1)} s)`,
    `${pad('latency ms', 20)}p50 ${f.latencyMs.p50}  p95 ${f.latencyMs.p95}  p99 ${f.latencyMs.p99}  max ${f.latencyMs.max}`,
    `${pad('status classes', 20)}${Object.entries(f.statusClasses)
      .map(([k, v]) => `${k} ${v}`)
      .join('  ')}`,
    `${pad('5xx', 20)}${f.serverErrors}`,
    `${pad('transport errors', 20)}${f.transportErrors}`,
    `${pad('unexpected answers', 20)}${f.unexpectedAnswers}`,
    `${pad('writes', 20)}created ${f.writes.created}, updated ${f.writes.updated}, deleted ${f.writes.deleted}`,
    `${pad('verified', 20)}present ${f.writes.verifiedPresent}, gone ${f.writes.verifiedGone}; lost ${f.writes.lost}, duplicated ${f.writes.duplicated}, stale reads ${f.writes.staleReads}, uncertain ${f.writes.uncertain}`,
    `${pad('races', 20)}${f.races.length} of ${f.races[0]?.contenders ?? 0} contenders: winners ${f.races.reduce((n, r) => n + r.winners, 0)}, refusals ${f.races.reduce((n, r) => n + r.refusals, 0)}, other ${f.races.reduce((n, r) => n + r.others, 0)}; one winner per race: ${f.oneWinnerPerRace ? 'yes' : 'no'}`,
    `${pad('isolation', 20)}foreign requests ${f.isolation.foreignRequests}, untagged ${f.isolation.untaggedRequests}, unrecorded ${f.isolation.unrecordedRequests}; foreign credentials refused ${f.isolation.crossCredentialsRefused}/${f.isolation.crossCredentialsRefused + f.isolation.crossCredentialsAccepted}, foreign tokens refused ${f.isolation.crossTokensRefused}/${f.isolation.crossTokensRefused + f.isolation.crossTokensAccepted}`,
    '',
    `${pad('operation', 34)}${pad('requests', 10)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}statuses`,
    ...Object.entries(f.operations).map(
      ([name, o]) =>
        `${pad(name, 34)}${pad(o.requests, 10)}${pad(o.p50, 9)}${pad(o.p95, 9)}${Object.entries(o.statuses)
          .map(([s, n]) => `${s}:${n}`)
          .join(' ')}`,
    ),
    ...f.races
      .filter((r) => r.winners !== 1 || r.others !== 0 || !r.gone)
      .map(
        (r) =>
          `race ${r.kind} in workspace ${r.workspace} (${r.target}): winners ${r.winners}, refusals ${r.refusals}, other ${r.others}, gone ${r.gone}`,
      ),
    ...f.unexpectedSamples.map((s) => `unexpected: ${s}`),
    ...(f.hardStopped ? ['hard stop: the run did not finish within the load time plus the grace time'] : []),
    '',
    verdictLine(f),
  ];
  return `${lines.join('\n')}\n`;
}

function readArgs(argv: readonly string[]): LoadOptions {
  const value = (name: string): number | undefined => {
    const i = argv.indexOf(`--${name}`);
    if (i === -1) return undefined;
    const n = Number(argv[i + 1]);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`Expected --${name} a whole number of at least 1, received ${argv[i + 1]}`);
    return n;
  };
  return {
    clients: value('clients'),
    seconds: value('seconds'),
    workspaces: value('workspaces'),
    raceSize: value('race'),
    seed: value('seed'),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = readArgs(process.argv.slice(2));
  // The last resort if closing hangs: runLoad aborts its requests at the hard stop itself.
  setTimeout(
    () => {
      process.stderr.write('loadCertify: hard stop\n');
      process.exit(1);
    },
    ((options.seconds ?? 30) + 45) * 1000,
  ).unref();
  const figures = await runLoad(options);
  process.stdout.write(formatFigures(figures));
  process.exitCode = figures.ok ? 0 : 1;
}
