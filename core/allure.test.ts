import { afterAll, describe, expect, test, vi } from 'vitest';
import { Status as AllureStatus } from 'allure-js-commons';
import { MessageHolderTestRuntime, setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';
import type { WorkerResult } from './events.ts';
import type { ExchangeRecord } from './results.ts';
import {
  allureLabelsFor,
  exchangeAttachmentName,
  reportToAllure,
  stepNameOf,
  stepStatusOf,
  strongestLevel,
} from './allure.ts';

const result = (over: Partial<WorkerResult> = {}): WorkerResult => ({
  check: 'error-status-and-code',
  summary: 'The documented status and code',
  operation: 'find-member-v2',
  requirements: ['D1-4.2-08', 'D1-7-01'],
  level: 'MUST',
  status: 'pass',
  message: 'HTTP 400 NO_MATCH_FOUND',
  ...over,
});

const exchange: ExchangeRecord = {
  method: 'POST',
  url: 'http://127.0.0.1:4010/membership/find-member?x=1',
  operation: 'find-member-v2',
  startedAt: '2026-01-01T00:00:00.000Z',
  duration: 3,
  request: { headers: { Authorization: 'Bearer ****' }, body: 'lastName=****' },
  status: 400,
  response: { headers: { 'content-type': 'application/json' }, body: '{}', size: 2, truncated: false },
};

describe('allureLabelsFor', () => {
  test('labels one result with its operation, document, section, requirements and severity', () => {
    expect(allureLabelsFor([result()])).toEqual([
      { name: 'operation', value: 'find-member-v2' },
      { name: 'feature', value: 'find-member-v2' },
      { name: 'epic', value: 'D1' },
      { name: 'section', value: '4.2' },
      { name: 'requirement', value: 'D1-4.2-08' },
      { name: 'requirement', value: 'D1-7-01' },
      { name: 'severity', value: 'critical' },
    ]);
  });

  test('gives each value once and one severity, from the strongest level of the test', () => {
    const labels = allureLabelsFor([
      result({ level: 'INFO', requirements: ['D1-7-01'] }),
      result({ level: 'SHOULD', requirements: ['D1-7-01', 'D1-7-16'] }),
      result({ operation: 'find-member-v1', level: 'INFO', requirements: ['D1-7-16'] }),
    ]);
    expect(labels.filter((l) => l.name === 'severity')).toEqual([{ name: 'severity', value: 'normal' }]);
    expect(labels.filter((l) => l.name === 'requirement').map((l) => l.value)).toEqual(['D1-7-01', 'D1-7-16']);
    expect(labels.filter((l) => l.name === 'operation').map((l) => l.value)).toEqual([
      'find-member-v2',
      'find-member-v1',
    ]);
    expect(labels.filter((l) => l.name === 'epic')).toEqual([{ name: 'epic', value: 'D1' }]);
  });

  test('maps MUST to critical, SHOULD to normal, INFO to minor', () => {
    const severity = (levels: WorkerResult['level'][]) =>
      allureLabelsFor(levels.map((level) => result({ level }))).find((l) => l.name === 'severity')?.value;
    expect(severity(['INFO'])).toBe('minor');
    expect(severity(['INFO', 'SHOULD'])).toBe('normal');
    expect(severity(['SHOULD', 'MUST', 'INFO'])).toBe('critical');
    expect(allureLabelsFor([])).toEqual([]);
    expect(strongestLevel([])).toBeUndefined();
  });

  test('a result naming no known operation still gets its operation label, without document or section', () => {
    const labels = allureLabelsFor([result({ operation: 'find-member', requirements: [] })]);
    expect(labels.map((l) => l.name)).toEqual(['operation', 'feature', 'severity']);
  });
});

describe('attachment and step names', () => {
  test('an exchange is named by method, path and status', () => {
    expect(exchangeAttachmentName(exchange)).toBe('POST /membership/find-member?x=1 -> 400');
    expect(exchangeAttachmentName({ method: 'GET', url: 'http://h/a', status: undefined })).toBe(
      'GET /a -> no response',
    );
    expect(exchangeAttachmentName({ method: 'GET', url: 'not a url', status: 200 })).toBe('GET not a url -> 200');
  });

  test('a step says status, check, level and a one-line message', () => {
    expect(stepNameOf(result({ status: 'fail', message: 'Expected 400,\nreceived 200' }))).toBe(
      'fail error-status-and-code [MUST]: Expected 400, received 200',
    );
    expect(stepNameOf(result({ message: 'x'.repeat(500) })).length).toBeLessThan(260);
    expect(stepNameOf(result({ message: '' }))).toBe('pass error-status-and-code [MUST]');
  });

  test("a step has the status of the check's finding", () => {
    expect(stepStatusOf('pass')).toBe(AllureStatus.PASSED);
    expect(stepStatusOf('fail')).toBe(AllureStatus.FAILED);
    expect(stepStatusOf('warn')).toBe(AllureStatus.FAILED);
    expect(stepStatusOf('error')).toBe(AllureStatus.BROKEN);
    expect(stepStatusOf('skip')).toBe(AllureStatus.SKIPPED);
    expect(stepStatusOf('omit')).toBe(AllureStatus.SKIPPED);
  });
});

describe('reportToAllure', () => {
  test('does nothing, silently, without the allure-vitest runtime', () => {
    const warn = vi.spyOn(console, 'warn');
    const log = vi.spyOn(console, 'log');
    expect(() => reportToAllure(result(), exchange)).not.toThrow();
    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    warn.mockRestore();
    log.mockRestore();
  });

  // A runtime that keeps the messages instead of handing them to allure-vitest's reporter.
  const runtime = new MessageHolderTestRuntime();
  afterAll(() => setGlobalTestRuntime(new MessageHolderTestRuntime()));

  test('sends labels once, each exchange once, and one step per result', () => {
    setGlobalTestRuntime(runtime);
    reportToAllure(result({ level: 'INFO', exchange: 'x1' }), exchange);
    reportToAllure(result({ status: 'fail', message: 'Expected 400, received 200', exchange: 'x1' }), exchange);
    reportToAllure(result({ requirements: ['D1-7-16'], status: 'warn', level: 'SHOULD', exchange: 'x2' }), {
      ...exchange,
      status: 200,
    });

    const messages = runtime.messages();
    const labels = messages.flatMap((m) => (m.type === 'metadata' ? (m.data.labels ?? []) : []));
    expect(labels.filter((l) => l.name === 'requirement').map((l) => l.value)).toEqual([
      'D1-4.2-08',
      'D1-7-01',
      'D1-7-16',
    ]);
    expect(labels.filter((l) => l.name === 'operation')).toHaveLength(1);
    // severity is sent when the test finishes (next test)
    expect(labels.filter((l) => l.name === 'severity')).toEqual([]);

    const attachments = messages.flatMap((m) => (m.type === 'attachment_content' ? [m.data] : []));
    expect(attachments.map((a) => a.name)).toEqual([
      'POST /membership/find-member?x=1 -> 400',
      'POST /membership/find-member?x=1 -> 200',
    ]);
    expect(attachments.every((a) => a.contentType === 'application/json')).toBe(true);
    expect(JSON.parse(Buffer.from(attachments[0].content, 'base64').toString('utf8'))).toEqual(exchange);

    const stops = messages.flatMap((m) => (m.type === 'step_stop' ? [m.data] : []));
    expect(stops.map((s) => s.status)).toEqual([AllureStatus.PASSED, AllureStatus.FAILED, AllureStatus.FAILED]);
    expect(stops[1].statusDetails?.message).toBe('Expected 400, received 200');
    expect(stops[1].statusDetails?.trace).toBeUndefined();
  });

  test('the finished test got one severity, from its strongest level', () => {
    const severities = runtime
      .messages()
      .flatMap((m) => (m.type === 'metadata' ? (m.data.labels ?? []) : []))
      .filter((l) => l.name === 'severity');
    expect(severities).toEqual([{ name: 'severity', value: 'critical' }]);
  });

  test('attaches a body of more than 20 KB cut to 20 KB, as report.html shows it', () => {
    const own = new MessageHolderTestRuntime();
    setGlobalTestRuntime(own);
    const big = `{"entry":"${'é'.repeat(60_000)}"}`;
    reportToAllure(result({ exchange: 'x9' }), {
      ...exchange,
      response: { ...exchange.response, body: big, size: Buffer.byteLength(big), truncated: false },
    } as ExchangeRecord);
    const [attached] = own.messages().flatMap((m) => (m.type === 'attachment_content' ? [m.data] : []));
    const shown = JSON.parse(Buffer.from(attached.content, 'base64').toString('utf8')) as ExchangeRecord;
    const body = shown.response?.body ?? '';
    expect(body.endsWith('\n...[cut]')).toBe(true);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(20 * 1024 + 16);
    expect(big.startsWith(body.slice(0, 1000))).toBe(true);
    expect(shown.request).toEqual(exchange.request);
  });
});
