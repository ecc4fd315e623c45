/**
 * Diary (Document 3, 2.3, 4.3, 7): post-auth outcomes 1/2/3, refresh, the three lists, and 401
 * with no body when unauthorised. Every code that names an authorisation is sent once per run
 * (DEC-D3-70): the configured code first, then those of its list, and a skip says when they run out.
 */
import {
  diaryListShape,
  diaryResponseCode,
  emptyBody,
  matchesSchema,
  membersPresent,
  noDiaryTokenIssued,
  notServerError,
  statusIs,
  successStatus,
} from '../checks/index.ts';
import { FIXTURE_CONFIGURED } from '../core/decidedOutcomes.ts';
import type { Exchange } from '../core/exchange.ts';
import { bodyOf, isRecord } from '../core/exchange.ts';
import { describeOperation, fixture, on, type OperationBinder, runContext } from '../core/suite.ts';
import { describeDerivedRequests } from './common/derivedRequests.ts';
import { verifySuccess } from './common/steps.ts';

const postAuthOp = on('diary-post-auth');

/** Post authorisation takes `Code` and `StateToken` as multipart/form-data fields (4.3). */
function postAuth(fields: Record<string, string>): Promise<Exchange> {
  return postAuthOp.call({ multipart: fields });
}

const STATE = { StateToken: 'conformance-state' };

/** A refresh whose answer must not be response 2 with an access token (DEC-D3-51). */
function verifyNoTokenIssued(op: OperationBinder, x: Exchange, what: string): void {
  const j = op
    .must('D3-4.3-11')
    .under('DEC-D3-51')
    .with({ evidence: { request: what } });
  j.check(x, noDiaryTokenIssued);
  j.check(x, notServerError);
}

/** The outcomes whose codes name an authorisation: each code is sent once per run (DEC-D3-70). */
type OnceOnly = 'valid' | 'unmapped';
const CODE_SETTINGS: Readonly<
  Record<
    OnceOnly,
    { single: 'diary.validCode' | 'diary.unmappedSiteCode'; list: 'diary.validCodes' | 'diary.unmappedSiteCodes' }
  >
> = {
  valid: { single: 'diary.validCode', list: 'diary.validCodes' },
  unmapped: { single: 'diary.unmappedSiteCode', list: 'diary.unmappedSiteCodes' },
};

/**
 * What a run has used of its codes, and the diary token the lists share: per run (keyed by the
 * run's fixtures, as suite files share their worker's modules), never across runs.
 */
interface CodeLedger {
  taken: Record<OnceOnly, number>;
  listToken?: Promise<string | undefined>;
}
const ledgers = new WeakMap<object, CodeLedger>();
function ledger(): CodeLedger {
  const key = runContext().fixtures;
  const found = ledgers.get(key) ?? { taken: { valid: 0, unmapped: 0 } };
  ledgers.set(key, found);
  return found;
}

/** The codes of an outcome in the order they are used: the single setting, then its list. */
function configuredCodes(single: string | undefined, list: readonly string[] | undefined): string[] {
  return [single, ...(list ?? [])].filter((c): c is string => typeof c === 'string' && c.trim() !== '');
}

/**
 * The next code of `kind` not yet sent in this run, or undefined after recording one skip citing
 * `cites` (`fixture-configured`): none configured, or every configured code used once already (a
 * target may accept a code once only, DEC-D3-70; the message says which list to lengthen).
 */
function takeCode(op: OperationBinder, kind: OnceOnly, ...cites: string[]): string | undefined {
  const { single, list } = CODE_SETTINGS[kind];
  const codes = configuredCodes(fixture(single), fixture(list));
  const used = ledger().taken[kind];
  if (used < codes.length) {
    ledger().taken[kind] = used + 1;
    return codes[used];
  }
  const message =
    codes.length === 0
      ? `No fixture ${single} in the config`
      : `The ${codes.length} configured code(s) of ${single} and ${list} are used up: each is sent once, as a target ` +
        `may accept a code once only (DEC-D3-70); list more codes in fixtures.${list}`;
  op.must(...cites).decided(FIXTURE_CONFIGURED, 'skip', message);
  return undefined;
}

const tokenOf = (x: Exchange): string | undefined => {
  const body = bodyOf(x);
  return isRecord(body) && typeof body.access_token === 'string' && body.access_token !== ''
    ? body.access_token
    : undefined;
};

/** A diary token from a valid code of its own, or undefined (recorded as a skip citing `cites`). */
async function diaryToken(op: OperationBinder, ...cites: string[]): Promise<string | undefined> {
  const code = takeCode(op, 'valid', ...cites);
  if (code === undefined) return undefined;
  const token = tokenOf(await postAuth({ Code: code, ...STATE }));
  if (!token)
    op.must(...cites).decided(FIXTURE_CONFIGURED, 'skip', 'No diary token: the configured valid code was refused');
  return token;
}

/**
 * The token the three diary lists share (one code for the three, DEC-D3-70): the token the
 * post-authorisation outcome test received, else one from a code of its own.
 */
async function listToken(op: OperationBinder, ...cites: string[]): Promise<string | undefined> {
  const own = ledger();
  if (own.listToken === undefined) {
    // The first list to ask takes the code; its own skip is recorded by diaryToken.
    own.listToken = diaryToken(op, ...cites);
    return own.listToken;
  }
  const token = await own.listToken;
  if (!token)
    op.must(...cites).decided(FIXTURE_CONFIGURED, 'skip', 'No diary token for the lists (see the first list)');
  return token;
}

const OUTCOMES: readonly [OnceOnly | 'invalid', 1 | 2 | 3, string][] = [
  ['valid', 2, 'D3-4.3-02'],
  ['invalid', 1, 'D3-4.3-03'],
  ['unmapped', 3, 'D3-4.3-04'],
];

describeOperation('diary-post-auth', (op) => {
  op.test('each authorisation code gives its documented response code', async () => {
    for (const [kind, expected, req] of OUTCOMES) {
      // A code that names an authorisation is sent once (DEC-D3-70); the invalid one as often as needed.
      const code = kind === 'invalid' ? op.need('diary.invalidCode', req) : takeCode(op, kind, req);
      if (!code) continue;
      const x = await postAuth({ Code: code, ...STATE });
      // The HTTP status of each outcome is not shown (DEC-D3-10): recorded; the body is judged whatever the status.
      op.info('D3-4.3-05').under('DEC-D3-10').check(x, successStatus(), { expectedResponse: expected });
      op.must(req, 'D3-4.3-01').under('DEC-D3-10').check(x, matchesSchema('diary-token.schema.json'));
      const cited = expected === 2 ? [req, 'D3-4.3-01', 'D3-1-03'] : [req];
      op.must(...cited)
        .under('DEC-D3-10')
        .check(x, diaryResponseCode(expected));
      // The lists may share this token (one code fewer); a list takes a code of its own otherwise.
      const token = expected === 2 ? tokenOf(x) : undefined;
      if (token) ledger().listToken ??= Promise.resolve(token);
      const again = kind === 'invalid' ? code : takeCode(op, kind, 'D3-4.3-06');
      if (!again) continue;
      const stateless = await postAuth({ Code: again });
      const withoutState = { request: 'without StateToken' };
      op.must('D3-4.3-06').under('DEC-D3-50').check(stateless, diaryResponseCode(expected), withoutState);
    }
  });

  op.test('a post authorisation without Code is not a server error', async () => {
    op.must('D3-4.3-08')
      .under('DEC-D3-51')
      .check(await postAuth(STATE), notServerError);
  });
});

describeOperation('diary-refresh-token', (op) => {
  op.test('refreshing a diary token gives a new one', async () => {
    const token = await diaryToken(op, 'D3-4.3-09', 'D3-5-08', 'D3-4.3-10');
    if (!token) return;
    const x = await op.call({ values: { diaryToken: token } });
    verifySuccess(x, op.id, { success: ['D3-4.3-09'], schema: ['D3-4.3-09'] });
    op.must('D3-4.3-09', 'D3-5-08').under('DEC-D3-10').check(x, diaryResponseCode(2));
    const body = bodyOf(x);
    const refreshed = isRecord(body) && typeof body.access_token === 'string' ? body.access_token : undefined;
    if (!refreshed) return;
    for (const list of ['list-episode-types', 'list-appointment-statuses', 'list-recurrence-types'] as const) {
      if (!runContext().addresses[list]) continue;
      const l = await on(list).call({ values: { diaryToken: refreshed } });
      op.must('D3-4.3-10').under('DEC-D3-51').check(l, successStatus(200), { list });
    }
  });

  op.test('a refresh without a token or with an unknown one issues no token', async () => {
    const unknown = { values: { diaryToken: 'not-a-diary-token-0000' } };
    verifyNoTokenIssued(op, await op.call({ omitHeaders: ['Authorization'] }), 'a refresh without a token');
    verifyNoTokenIssued(op, await op.call(unknown), 'a refresh with an unknown token');
  });
});

// Items must carry their id and type or status (MUST); `description` should be there (SHOULD, DEC-D3-29).
for (const [id, keys, req, itemReq, described] of [
  ['list-episode-types', ['id', 'type'], 'D3-4.3-13', 'D3-2.3-05', true],
  ['list-appointment-statuses', ['id', 'status'], 'D3-4.3-14', 'D3-2.3-06', false],
  ['list-recurrence-types', ['id', 'type'], 'D3-4.3-15', 'D3-2.3-07', true],
] as const) {
  describeOperation(id, (op) => {
    op.test('the list with a diary token', async () => {
      const token = await listToken(op, req, 'D3-5-08', 'D3-2.3-01', 'D3-2.3-02', itemReq);
      if (!token) return;
      const x = await op.call({ values: { diaryToken: token } });
      if (!verifySuccess(x, id, { success: [req, 'D3-5-08'], schema: ['D3-2.3-01', 'D3-2.3-02'] }, { status: 200 }))
        return;
      op.must(req, 'D3-2.3-01', 'D3-2.3-02', itemReq).under('DEC-D3-11', 'DEC-D3-29').check(x, diaryListShape(keys));
      if (described)
        op.should('D3-2.3-08')
          .under('DEC-D3-29')
          .check(x, membersPresent(['data[].description']));
    });

    op.test('unauthorised: 401 with no body', async () => {
      for (const headers of [undefined, { Authorization: 'Bearer not-a-diary-token-0000' }]) {
        const x = await op.call(headers ? { headers } : { omitHeaders: ['Authorization'] });
        op.must('D3-7-22', 'D3-4.3-16').check(x, statusIs(401));
        op.must('D3-7-22', 'D3-4.3-16').check(x, emptyBody);
      }
    });
  });
}

// Codes of documented form that name no authorisation the target issued: served (response 1) or
// refused, never a refusal of the form; the missing, empty and other negative cases derived.
describeDerivedRequests({ 'diary-post-auth': {} });
