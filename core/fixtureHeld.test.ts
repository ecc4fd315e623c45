import { describe, expect, test } from 'vitest';
import { operation, operations } from '../spec/operations.ts';
import type { Exchange, ExchangeRequest } from './exchange.ts';
import { carries, HeldFixtures, namedValues, notFoundAnswer, requestValues, saysNotFound } from './fixtureHeld.ts';
import { multipartBody } from './request.ts';

const request = (url: string, extra: Partial<ExchangeRequest> = {}): ExchangeRequest => ({
  method: 'GET',
  url,
  headers: { accept: 'application/json' },
  ...extra,
});
let n = 0;
const exchange = (req: ExchangeRequest, status?: number, body?: unknown, type = 'application/json'): Exchange => ({
  id: `x${++n}`,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  request: req,
  ...(status === undefined
    ? { error: 'Connection refused', errorKind: 'transport' as const }
    : {
        response: {
          status,
          headers: { 'content-type': type },
          bodyText: typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body),
          size: 0,
          truncated: false,
        },
      }),
});
const outcome = (code: string) => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'exception', details: { coding: [{ code }] } }],
});
const BILL = 'https://t.example/claims/claim/BILL-0001/false';
const member = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', refine: { sex: 'Male' } };

describe('what a request carries', () => {
  test('decoded path segments, query and header values', () => {
    const v = requestValues(
      request('https://t.example/claims/claim/BILL%200001/false?insurerid=bup', {
        headers: { 'SU-SiteId': 'SITE005' },
      }),
    );
    expect([...v]).toEqual(expect.arrayContaining(['BILL 0001', 'false', 'bup', 'SITE005']));
  });

  test('form, multipart and JSON bodies', () => {
    const form = request('https://t.example/fm', { method: 'POST', body: 'lastName=Smith&firstInitial=J' });
    expect([...requestValues(form)]).toEqual(expect.arrayContaining(['Smith', 'J']));
    const m = multipartBody([['practitionerId', 'PR-0001']]);
    const multi = request('https://t.example/p', {
      method: 'POST',
      headers: { 'Content-Type': m.contentType },
      body: m.body,
    });
    expect(requestValues(multi).has('PR-0001')).toBe(true);
    const json = request('https://t.example/p', { method: 'POST', body: JSON.stringify({ subject: { id: 'PAT-1' } }) });
    expect(requestValues(json).has('PAT-1')).toBe(true);
  });

  test('a value is carried when equal, never as a part of another', () => {
    expect(carries(requestValues(request(BILL)), 'BILL-0001')).toBe(true);
    expect(carries(requestValues(request('https://t.example/claims/claim/BILL-00011/false')), 'BILL-0001')).toBe(false);
  });

  test('a search fixture is carried when every text member is (its refinements aside)', () => {
    expect(namedValues(member)).toEqual(['ppp', 'J', 'Smith']);
    const all = requestValues(
      request('https://t.example/fm', { body: 'insurerIdentifier=ppp&firstInitial=J&lastName=Smith' }),
    );
    expect(carries(all, member)).toBe(true);
    const other = requestValues(request('https://t.example/fm', { body: 'insurerIdentifier=ppp&lastName=Smith' }));
    expect(carries(other, member)).toBe(false);
    expect(carries(all, '')).toBe(false);
  });
});

describe('a not-found answer', () => {
  const getBill = operation('get-bill').errors;

  test('HTTP 404, or a 4xx with a not-found code of the error table', () => {
    expect(notFoundAnswer(exchange(request(BILL), 404, outcome('MSG_ENTITY_NOT_FOUND')), getBill)).toBe(
      'HTTP 404 MSG_ENTITY_NOT_FOUND',
    );
    expect(notFoundAnswer(exchange(request(BILL), 404, '<html>Not Found</html>', 'text/html'), getBill)).toBe(
      'HTTP 404',
    );
    const findMember = operation('find-member-v2').errors;
    expect(notFoundAnswer(exchange(request(BILL), 400, outcome('NO_MATCH_FOUND')), findMember)).toBe(
      'HTTP 400 NO_MATCH_FOUND',
    );
    const userInfo = operation('get-user-info').errors;
    const secret = { status: 'fail', message: 'Secret code not found', code: 422 };
    expect(notFoundAnswer(exchange(request(BILL), 422, secret), userInfo)).toBe('HTTP 422 Secret code not found');
    // Document 3, 7: "SNS_ID is Invalid." for an `sns_id` the target did not generate (4.1).
    const eventInfo = operation('get-event-info').errors;
    const sns = { message: 'SNS_ID is Invalid.', code: 403 };
    expect(notFoundAnswer(exchange(request(BILL), 403, sns), eventInfo)).toBe('HTTP 403 SNS_ID is Invalid.');
  });

  test('not a 5xx, a success, another refusal, a code of another meaning, or no answer', () => {
    expect(notFoundAnswer(exchange(request(BILL), 500, outcome('MSG_ENTITY_NOT_FOUND')), getBill)).toBeUndefined();
    expect(notFoundAnswer(exchange(request(BILL), 200, {}), getBill)).toBeUndefined();
    expect(notFoundAnswer(exchange(request(BILL), 400, outcome('MSG_PARAM_INVALID')), getBill)).toBeUndefined();
    const findMember = operation('find-member-v2').errors;
    expect(notFoundAnswer(exchange(request(BILL), 400, outcome('MULTIPLE_MATCH_FOUND')), findMember)).toBeUndefined();
    expect(notFoundAnswer(exchange(request(BILL)), getBill)).toBeUndefined();
    const introspect = operation('introspect').errors;
    const site = { message: 'The SU-Site SITE005 and SU-User U1 authorisation is invalid', code: 403 };
    expect(notFoundAnswer(exchange(request(BILL), 403, site), introspect)).toBeUndefined();
  });

  test('the not-found entries of the whole operation table are the ones that say the target does not know a value', () => {
    const codes = new Set(operations.flatMap((o) => o.errors.filter(saysNotFound).map((e) => `${e.status} ${e.code}`)));
    expect([...codes].sort()).toEqual(
      [
        '400 NO_MATCH_FOUND',
        '404 InvalidId',
        '404 MSG_ENTITY_NOT_FOUND',
        '404 MSG_ENTITY_NOT_FOUND_IN_DATABASE',
        '404 NHS user not found',
        '422 MSG_REFERENCE_ID_NOT_FOUND',
        '422 REFERENCE_NOT_FOUND',
        '422 Secret code not found',
        '403 SNS_ID is Invalid.',
      ].sort(),
    );
  });
});

describe('what the target has shown it holds', () => {
  const configured = [
    { path: 'bills.billId', value: 'BILL-0001' },
    { path: 'bills.insurerid', value: 'bup' },
    { path: 'findMemberV2.single', value: member },
  ];
  const search = request('https://t.example/claims/claim/search?insurerid=bup');
  const bundle = (ids: string[]) => ({
    resourceType: 'Bundle',
    type: 'searchset',
    entry: ids.map((id) => ({ resource: { resourceType: 'Claim', id } })),
  });

  test('a value a success answer returns is held', () => {
    const held = new HeldFixtures();
    held.note(exchange(search, 200, bundle(['BILL-0001', 'BILL-0002'])), configured);
    expect(held.isHeld('bills.billId')).toBe(true);
    // The search by insurer was served with bills: the insurer is held too.
    expect(held.isHeld('bills.insurerid')).toBe(true);
  });

  test('an empty search, a value only inside another text, or a refusal is no evidence', () => {
    const held = new HeldFixtures();
    held.note(exchange(search, 200, bundle([])), configured);
    held.note(exchange(search, 200, { resourceType: 'Bundle', link: [{ url: `${BILL}?x=BILL-0001` }] }), configured);
    held.note(exchange(request(BILL), 404, outcome('MSG_ENTITY_NOT_FOUND')), configured);
    held.note(exchange(request(BILL), 500, bundle(['BILL-0001'])), configured);
    expect(held.isHeld('bills.billId')).toBe(false);
    expect(held.isHeld('bills.insurerid')).toBe(false);
  });

  test('a search fixture is held once a request naming it is served', () => {
    const held = new HeldFixtures();
    const find = request('https://t.example/fm', {
      method: 'POST',
      body: 'insurerIdentifier=ppp&firstInitial=J&lastName=Smith',
    });
    held.note(exchange(find, 400, outcome('NO_MATCH_FOUND')), configured);
    expect(held.isHeld('findMemberV2.single')).toBe(false);
    held.note(exchange(find, 200, { resourceType: 'Coverage', id: 'COV-1' }), configured);
    expect(held.isHeld('findMemberV2.single')).toBe(true);
  });
});
