/**
 * `pact check` parts (a) and (b) on hand-written pacts: what a partner's file can hold (broken
 * files, specification 2 and 3 queries, a real token), each rule at the level of the rows it
 * cites, and the sealed report. Part (c) and the partner example: examples/partner-consumer.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { findingsOf } from '../../core/findings.ts';
import { verifyReportDir } from '../../reports/writeReports.ts';
import { loadRequirements } from '../../spec/requirements.ts';
import { stricterThanCited } from '../../test/support/levels.ts';
import { checkPartnerPact } from './checkPartnerPact.ts';
import { NO_OPERATION } from './judgeInteractions.ts';
import { PactFileError, readPact } from '../readPact.ts';

const dir = mkdtempSync(join(tmpdir(), 'pact-check-'));
let n = 0;
function file(content: unknown): string {
  const f = join(dir, `pact-${n++}.json`);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
}

const SECRET = 'eyJ-partner-real-token-123';
const v = (version: string, interactions: unknown[]) => ({
  consumer: { name: 'partner' },
  provider: { name: 'api-family' },
  metadata: { pactSpecification: { version } },
  interactions,
});
const findMember = (headers: Record<string, string>) => ({
  description: 'find member',
  request: {
    method: 'POST',
    path: '/membership/find-member',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: 'insurerIdentifier=ppp&firstInitial=J&lastName=Smith&dateOfBirth=1980-04-12',
  },
  response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: { resourceType: 'Coverage' } },
});
const retrieveAddress = (query: unknown) => ({
  description: 'retrieve address',
  request: { method: 'GET', path: '/address/retrieve', query, headers: { Authorization: `Bearer ${SECRET}` } },
  response: { status: 200 },
});

describe('reading a pact', () => {
  test('a file that is no pact is a one-line PactFileError', () => {
    const cases: [unknown, RegExp][] = [
      ['{not json', /is not JSON/],
      [{ interactions: [] }, /consumer or provider name missing/],
      [{ consumer: { name: 'c' }, provider: { name: 'p' } }, /expected an object with an interactions array/],
      [v('3.0.0', [{ description: 'x', request: { path: '/a' }, response: { status: 200 } }]), /no request method/],
      [v('3.0.0', []), /holds no HTTP interaction/],
    ];
    for (const [content, message] of cases) {
      expect(() => readPact(file(content))).toThrow(PactFileError);
      expect(() => readPact(file(content))).toThrow(message);
    }
    expect(() => readPact(join(dir, 'absent.json'))).toThrow(/cannot read .*ENOENT/);
  });

  test('bodies of specification 4 are read from their content, messages are left aside', () => {
    const p = readPact(
      file({
        ...v('4.0', []),
        interactions: [
          { type: 'Asynchronous/Messages', description: 'a message' },
          {
            type: 'Synchronous/HTTP',
            description: 'form',
            request: {
              method: 'post',
              path: '/x',
              body: { content: 'a=1', contentType: 'application/x-www-form-urlencoded' },
            },
            response: { status: 200 },
          },
        ],
      }),
    );
    expect(p.notHttp).toEqual(['a message']);
    expect(p.interactions[0].request).toMatchObject({ method: 'POST', body: 'a=1' });
  });
});

describe('judging a pact', () => {
  test('a conforming interaction passes, a broken one fails its rule, at the level of its rows', async () => {
    const reportDir = join(dir, 'report-1');
    const good = findMember({ Authorization: `Bearer ${SECRET}`, 'SU-SiteId': 'SITE001', 'SVC-API-Version': '2' });
    const noSite = {
      ...findMember({ Authorization: `Bearer ${SECRET}`, 'SVC-API-Version': '2' }),
      description: 'no site',
    };
    const o = await checkPartnerPact({ pactFile: file(v('3.0.0', [good, noSite])), reportDir });
    expect(o.exitCode).toBe(1);
    const r = o.results!;
    const failed = r.results.filter((x) => x.status === 'fail');
    expect(failed.map((x) => `${x.test?.split(': ')[1]} ${x.check}`).sort()).toEqual([
      'no site agrees-with-open-api',
      'no site client-sends-header',
    ]);
    expect(failed.find((x) => x.check === 'client-sends-header')?.requirements).toContain('D1-1-12');
    expect(stricterThanCited(r)).toEqual([]);
    expect((await verifyReportDir(reportDir)).intact).toBe(true);
    // A token the consumer test put in its pact never reaches the report.
    for (const name of ['results.json', 'report.html', 'junit.xml'])
      expect(readFileSync(join(reportDir, name), 'utf8')).not.toContain(SECRET);
  });

  test('an unknown address fails the OpenAPI agreement and is filed under no operation', async () => {
    const stray = { ...findMember({}), request: { ...findMember({}).request, path: '/membership/member-search' } };
    const o = await checkPartnerPact({ pactFile: file(v('3.0.0', [stray])), reportDir: join(dir, 'report-2') });
    const failed = o.results!.results.filter((x) => x.status === 'fail');
    expect(failed.map((x) => [x.operation, x.check, /received ([\w.-]+):/.exec(x.message)?.[1]])).toEqual([
      [NO_OPERATION, 'agrees-with-open-api', 'request.path-or-method.unknown'],
    ]);
    // A pact check judges the partner's client: its advice is said to the client, never to an operation.
    expect(o.results!.party).toBe('client');
    const advice = findingsOf(o.results!).map((f) => f.change);
    expect(advice.length).toBeGreaterThan(0);
    expect(advice.filter((a) => !/^(Change|Consider changing|Look at) your client/.test(a))).toEqual([]);
    const html = readFileSync(o.reports!.reportHtml, 'utf8');
    expect(html).not.toMatch(/http\.timeoutMs|Change \(no operation of the documents\) so that/);
  });

  test('| is judged in a raw query (specification 2) and left unjudged in a decoded one (3)', async () => {
    const raw = await checkPartnerPact({
      pactFile: file(v('2.0.0', [retrieveAddress('id=GB|123')])),
      reportDir: join(dir, 'report-3'),
      operatorProduct: true,
    });
    const pipe2 = raw.results!.results.find((x) => x.check === 'client-encodes-pipe');
    expect([pipe2?.status, pipe2?.level]).toEqual(['fail', 'MUST']);
    // The rows cited are those stating the rule (the client's own row where there is one).
    const text = new Map(loadRequirements().map((r) => [r.id, r.text]));
    expect(pipe2?.requirements.length).toBeGreaterThan(0);
    for (const id of pipe2?.requirements ?? []) expect(text.get(id)).toContain('%7C');
    const decoded = await checkPartnerPact({
      pactFile: file(v('3.0.0', [retrieveAddress({ id: ['GB|123'] })])),
      reportDir: join(dir, 'report-4'),
      operatorProduct: true,
    });
    const pipe3 = decoded.results!.results.find((x) => x.check === 'client-encodes-pipe');
    expect(pipe3?.status).toBe('skip');
    expect(pipe3?.message).toMatch(/keeps query values decoded/);
  });

  test('reserved operations fail for an external integrator and are skipped for an operator product', async () => {
    const pactFile = file(v('3.0.0', [retrieveAddress({ id: ['GB%7C123'] })]));
    const external = await checkPartnerPact({ pactFile, reportDir: join(dir, 'report-5') });
    const reserved = external.results!.results.find((x) => x.check === 'client-avoids-reserved');
    expect([reserved?.status, reserved?.level, reserved?.requirements]).toEqual(['fail', 'MUST', ['D2-1-08']]);
    const operator = await checkPartnerPact({ pactFile, reportDir: join(dir, 'report-6'), operatorProduct: true });
    expect(operator.results!.results.find((x) => x.check === 'client-avoids-reserved')?.status).toBe('skip');
  });

  test("a patient request without SVC-API-Version is recorded at INFO, never failed (the header's name is open, DEC-C-03)", async () => {
    const create = {
      description: 'create a patient',
      request: {
        method: 'POST',
        path: '/patients/patient',
        headers: {
          Authorization: `Bearer ${SECRET}`,
          'SU-SiteId': 'SITE001',
          'Content-Type': 'application/fhir+json',
          'X-Api-Version': '1',
        },
        body: { resourceType: 'Patient', name: [{ family: 'Patel' }] },
      },
      response: { status: 201 },
    };
    const o = await checkPartnerPact({ pactFile: file(v('3.0.0', [create])), reportDir: join(dir, 'report-8') });
    const version = o.results!.results.find(
      (x) => x.check === 'client-sends-header' && /SVC-API-Version/.test(x.summary),
    );
    expect([version?.status, version?.level]).toEqual(['warn', 'INFO']);
  });

  test('version 1 of Find Member fails for a partner (migration is mandatory, D1 4.1) and is recorded for an operator product', async () => {
    const v1 = findMember({ Authorization: `Bearer ${SECRET}`, 'SU-SiteId': 'SITE001', 'SVC-API-Version': '1' });
    const pactFile = file(v('3.0.0', [v1]));
    const o = await checkPartnerPact({ pactFile, reportDir: join(dir, 'report-7') });
    expect(o.exitCode).toBe(1);
    const failed = o.results!.results.filter((x) => x.status === 'fail');
    expect(failed.map((x) => [x.operation, x.check, x.level, x.requirements])).toEqual([
      ['find-member-v1', 'client-avoids-deprecated', 'MUST', ['D1-4.1-16']],
    ]);
    // The row cites the documents' sentence verbatim.
    const row = loadRequirements().find((r) => r.id === 'D1-4.1-16');
    expect([row?.party, row?.level]).toEqual(['client', 'MUST']);
    expect(row?.text).toContain(
      'Version 1 is deprecated and stays functional until further notice; no sunset date is set; migration to version 2 is mandatory for new and existing integrations.',
    );
    // The parameters are judged against the rows on parameters, not the migration row.
    const params = o.results!.results.find((x) => x.check === 'client-sends-documented-parameters');
    expect(params?.requirements).not.toContain('D1-4.1-16');
    const operator = await checkPartnerPact({ pactFile, reportDir: join(dir, 'report-7o'), operatorProduct: true });
    expect(operator.exitCode).toBe(0);
    const deprecated = operator.results!.results.find((x) => x.check === 'client-avoids-deprecated');
    expect([deprecated?.operation, deprecated?.status, deprecated?.level, deprecated?.requirements]).toEqual([
      'find-member-v1',
      'warn',
      'INFO',
      ['D1-9-05'],
    ]);
    expect(stricterThanCited(o.results!)).toEqual([]);
    expect(stricterThanCited(operator.results!)).toEqual([]);
  });

  test('a patient created with an id of its own fails client-create-without-id (D3 4.4: "without id")', async () => {
    const create = (body: Record<string, unknown>) => ({
      description: 'create a patient',
      request: {
        method: 'POST',
        path: '/patients/patient',
        headers: {
          Authorization: `Bearer ${SECRET}`,
          'SU-SiteId': 'SITE001',
          'Content-Type': 'application/fhir+json',
          'SVC-API-Version': '1',
        },
        body,
      },
      response: { status: 201 },
    });
    const patient = { resourceType: 'Patient', name: [{ family: 'Patel', given: ['Priya'] }] };
    const o = await checkPartnerPact({
      pactFile: file(v('3.0.0', [create({ ...patient, id: 'local-1' })])),
      reportDir: join(dir, 'report-9'),
    });
    const withId = o.results!.results.find((x) => x.check === 'client-create-without-id');
    expect([withId?.status, withId?.level, withId?.requirements]).toEqual(['fail', 'MUST', ['D3-4.4-21']]);
    expect(o.exitCode).toBe(1);
    const clean = await checkPartnerPact({
      pactFile: file(v('3.0.0', [create(patient)])),
      reportDir: join(dir, 'report-10'),
    });
    expect(clean.results!.results.find((x) => x.check === 'client-create-without-id')?.status).toBe('pass');
  });
});

describe('a pact may rely on less than the documents give (issue 31)', () => {
  const headers = { Authorization: `Bearer ${SECRET}`, 'SU-SiteId': 'SITE001', 'SVC-API-Version': '2' };
  const answering = (body: unknown, status = 200) => ({
    ...findMember(headers),
    response: { status, headers: { 'Content-Type': 'application/json' }, body },
  });
  const verdictOf = async (interaction: unknown, name: string) => {
    const o = await checkPartnerPact({ pactFile: file(v('3.0.0', [interaction])), reportDir: join(dir, name) });
    const failed = o.results!.results.filter((x) => x.status === 'fail').map((x) => x.check);
    return { code: o.exitCode, failed };
  };

  test('every reference pact passes parts (a) and (b) of pact check, as an operator product', {
    timeout: 240_000,
  }, async () => {
    const { generateReferencePacts } = await import('../generate.ts');
    const files = await generateReferencePacts(mkdtempSync(join(tmpdir(), 'reference-pacts-')));
    expect(files.length).toBeGreaterThanOrEqual(10);
    // One pact holding every reference interaction: the comparator compiles the documents once.
    const pacts = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as { interactions: unknown[] });
    const all = { ...pacts[0], interactions: pacts.flatMap((p) => p.interactions) };
    const o = await checkPartnerPact({ pactFile: file(all), reportDir: join(dir, 'reference'), operatorProduct: true });
    const failed = o.results!.results.filter((x) => x.status === 'fail' || x.status === 'error');
    expect(failed.map((x) => `${x.test}: ${x.check}: ${x.message}`)).toEqual([]);
    expect(o.results!.results.filter((x) => x.check === 'agrees-with-open-api').length).toBe(
      2 * all.interactions.length,
    );
    expect(o.exitCode).toBe(0);
  });

  test('a Coverage with only the members the consumer reads passes; a member of the wrong type or value fails', async () => {
    const part = { resourceType: 'Coverage', id: 'COV-1' };
    expect(await verdictOf(answering(part), 'subset-1')).toEqual({ code: 0, failed: [] });
    expect((await verdictOf(answering({ ...part, resourceType: 'Patient' }), 'subset-2')).failed).toEqual([
      'agrees-with-open-api',
    ]);
    expect((await verdictOf(answering({ ...part, id: 42 }), 'subset-3')).failed).toEqual(['agrees-with-open-api']);
    // A member the documents never give is still refused (PactFlow's reading of answers).
    expect((await verdictOf(answering({ ...part, status: 'active' }), 'subset-4')).failed).toEqual([
      'agrees-with-open-api',
    ]);
  });

  test('a consumer test of a documented refusal is not failed for what it leaves out on purpose', async () => {
    const outcome = {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'required', details: { coding: [{ code: 'MSG_MISSING_MANDATORY_PARAM' }] } }],
    };
    const missing = answering(outcome, 400);
    missing.request = { ...missing.request, body: 'firstInitial=J&lastName=Smith&dateOfBirth=1980-04-12' };
    const judged = await verdictOf(missing, 'refusal-1');
    expect(judged).toEqual({ code: 0, failed: [] });
    // The same request expecting a success is the client's failure: it leaves out a required field.
    const expectingSuccess = { ...missing, response: answering({ resourceType: 'Coverage' }).response };
    expect((await verdictOf(expectingSuccess, 'refusal-2')).failed).toContain('client-sends-documented-parameters');
  });
});
