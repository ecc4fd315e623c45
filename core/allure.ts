/**
 * Allure reporting from inside the suites (allure-vitest): one hook called for every recorded
 * result, with the masked exchange it judged. The runner's allure-vitest reporter turns what this
 * module sends into `<report dir>/allure-results`.
 *
 * Everything written here comes from the result and the exchange record as `record()` hands them
 * over, both already masked: this module never sees, and so never writes, unmasked data.
 */
import { expect, onTestFinished } from 'vitest';
import { ContentType, Status as AllureStatus } from 'allure-js-commons';
import { BaseMessageTestRuntime, getGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';
import type { SyncTestRuntime } from 'allure-js-commons/sdk/runtime';
import { operation } from '../spec/operations.ts';
import type { Level } from '../spec/types.ts';
import type { WorkerResult } from './events.ts';
import type { ExchangeRecord, Status } from './results.ts';

export type AllureSeverity = 'critical' | 'normal' | 'minor';

export interface AllureLabel {
  name: string;
  value: string;
}

/** Severity of a test by the strongest level it judged (the worst one a failure could mean). */
export const SEVERITY_OF_LEVEL: Readonly<Record<Level, AllureSeverity>> = {
  MUST: 'critical',
  SHOULD: 'normal',
  INFO: 'minor',
};

const LEVEL_RANK: Readonly<Record<Level, number>> = { INFO: 0, SHOULD: 1, MUST: 2 };

/** The strongest of the levels (MUST > SHOULD > INFO); undefined when there are none. */
export function strongestLevel(levels: Iterable<Level>): Level | undefined {
  let strongest: Level | undefined;
  for (const level of levels)
    if (strongest === undefined || LEVEL_RANK[level] > LEVEL_RANK[strongest]) strongest = level;
  return strongest;
}

export type LabelledResult = Pick<WorkerResult, 'operation' | 'requirements' | 'level'>;

/** Labels one result contributes, without severity (which depends on the whole test). */
function labelsOfResult(result: LabelledResult): AllureLabel[] {
  const labels: AllureLabel[] = [
    { name: 'operation', value: result.operation },
    { name: 'feature', value: result.operation },
  ];
  // Runner-made results can name something that is not an operation (a crashed suite file): they
  // still get their operation label, only the document and section are unknown.
  const op = knownOperation(result.operation);
  if (op) labels.push({ name: 'epic', value: op.document }, { name: 'section', value: op.section });
  for (const id of result.requirements) labels.push({ name: 'requirement', value: id });
  return labels;
}

function knownOperation(id: string): { document: string; section: string } | undefined {
  try {
    return operation(id);
  } catch {
    return undefined;
  }
}

const labelKey = (l: AllureLabel) => `${l.name}\u0000${l.value}`;

/**
 * Every label of a test that recorded these results: operation, feature (= operation id), epic
 * (= document), section and requirement, each value once, and one severity from the strongest
 * level (MUST -> critical, SHOULD -> normal, INFO -> minor).
 */
export function allureLabelsFor(results: readonly LabelledResult[]): AllureLabel[] {
  const seen = new Set<string>();
  const labels: AllureLabel[] = [];
  for (const label of results.flatMap(labelsOfResult)) {
    if (seen.has(labelKey(label))) continue;
    seen.add(labelKey(label));
    labels.push(label);
  }
  const level = strongestLevel(results.map((r) => r.level));
  if (level) labels.push({ name: 'severity', value: SEVERITY_OF_LEVEL[level] });
  return labels;
}

/** Attachment name of an exchange: `GET /path?query -> 200` (`-> no response` when none came). */
export function exchangeAttachmentName(x: Pick<ExchangeRecord, 'method' | 'url' | 'status'>): string {
  let target = x.url;
  try {
    const url = new URL(x.url);
    target = url.pathname + url.search;
  } catch {
    // an unparsable URL is shown as recorded
  }
  return `${x.method} ${clip(target, 160)} -> ${x.status ?? 'no response'}`;
}

/** Allure status of a result's step: the check's own finding; the level only decides the test. */
export function stepStatusOf(status: Status): AllureStatus {
  switch (status) {
    case 'pass':
      return AllureStatus.PASSED;
    case 'fail':
    case 'warn':
      return AllureStatus.FAILED;
    case 'error':
      return AllureStatus.BROKEN;
    case 'skip':
    case 'omit':
      return AllureStatus.SKIPPED;
  }
}

/** Step title of a result: what was judged, how, and why (the message, clipped; the full one is in the step details). */
export function stepNameOf(result: Pick<WorkerResult, 'check' | 'status' | 'level' | 'message'>): string {
  const head = `${result.status} ${result.check} [${result.level}]`;
  return result.message ? `${head}: ${clip(result.message.replace(/\s+/g, ' '), 200)}` : head;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What this module already sent for one vitest test. */
interface TestState {
  labels: Set<string>;
  exchanges: Set<string>;
  strongest?: Level;
  /**
   * Allure keeps the first severity label of a test, so severity is sent once, when the test
   * finishes; where that hook cannot be registered, with the first result instead.
   */
  severityAtEnd: boolean;
  severitySent: boolean;
}

// Suites run their tests one after another in a worker (no describe.concurrent), so the current
// test name identifies the test; the entry is dropped when the test finishes.
const tests = new Map<string, TestState>();

/** The allure-vitest sync runtime, or undefined when the suites run without allure-vitest's setup. */
function allureRuntime(): SyncTestRuntime | undefined {
  const runtime = getGlobalTestRuntime();
  // Without the setup file the global runtime is a no-op that prints a warning on every call.
  return runtime instanceof BaseMessageTestRuntime ? runtime.sync : undefined;
}

/** Labels the current vitest test with the result's operation, section, requirements and severity, and attaches the exchange. */
export function reportToAllure(result: WorkerResult, exchange: ExchangeRecord | undefined): void {
  try {
    const runtime = allureRuntime();
    if (!runtime) return;
    // Outside a test (collection, hooks) allure-vitest would copy the message to every test of the suite.
    const testName = expect.getState().currentTestName;
    if (testName === undefined) return;
    const state = testState(testName, runtime);

    const fresh = labelsOfResult(result).filter((l) => !state.labels.has(labelKey(l)));
    for (const l of fresh) state.labels.add(labelKey(l));
    if (fresh.length > 0) runtime.labels(...fresh);

    if (exchange) {
      const key = result.exchange ?? `${exchange.method} ${exchange.url} ${exchange.startedAt}`;
      if (!state.exchanges.has(key)) {
        state.exchanges.add(key);
        runtime.attachment(exchangeAttachmentName(exchange), JSON.stringify(attachedExchange(exchange), null, 2), {
          contentType: ContentType.JSON,
        });
      }
    }

    // A plain error-shaped object: its message becomes the step details, with no stack trace of ours.
    const details = result.status === 'pass' ? undefined : { name: 'Finding', message: result.message };
    runtime.logStep(stepNameOf(result), stepStatusOf(result.status), details);

    state.strongest = strongestLevel(state.strongest ? [state.strongest, result.level] : [result.level]);
    if (!state.severityAtEnd) sendSeverity(runtime, state);
  } catch {
    // Allure is an extra view: a problem here must never change what the suite judged.
  }
}

function testState(testName: string, runtime: SyncTestRuntime): TestState {
  const known = tests.get(testName);
  if (known) return known;
  const created: TestState = { labels: new Set(), exchanges: new Set(), severityAtEnd: true, severitySent: false };
  tests.set(testName, created);
  try {
    // Runs inside the test's context, before allure-vitest collects the test's messages.
    onTestFinished(() => {
      tests.delete(testName);
      try {
        sendSeverity(runtime, created);
      } catch {
        // see reportToAllure
      }
    });
  } catch {
    created.severityAtEnd = false;
  }
  return created;
}

function sendSeverity(runtime: SyncTestRuntime, state: TestState): void {
  if (state.severitySent || !state.strongest) return;
  state.severitySent = true;
  runtime.labels({ name: 'severity', value: SEVERITY_OF_LEVEL[state.strongest] });
}

/** Bytes of a body an Allure attachment shows (the HTML report shows as much; results.json keeps the evidence). */
const ATTACHED_BODY_BYTES = 20 * 1024;

function attachedExchange(x: ExchangeRecord): ExchangeRecord {
  const cut = (body: string) =>
    body.length <= ATTACHED_BODY_BYTES / 3 || Buffer.byteLength(body) <= ATTACHED_BODY_BYTES
      ? body
      : `${Buffer.from(body).subarray(0, ATTACHED_BODY_BYTES).toString('utf8')}\n...[cut]`;
  return {
    ...x,
    request: { ...x.request, ...(x.request.body !== undefined ? { body: cut(x.request.body) } : {}) },
    ...(x.response ? { response: { ...x.response, body: cut(x.response.body) } } : {}),
  };
}
