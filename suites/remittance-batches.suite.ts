/**
 * Clearing remittance batches (Document 1, 2.6, 3, 4.6-4.8): the pending list, one batch, and the
 * acknowledgement state machine (listed until acknowledged; unknown or removed ids give InvalidId).
 * Acknowledging is destructive and runs only with --allow-destructive.
 */
import { describe, test } from 'vitest';
import {
  acknowledgedBatchGone,
  batchBelongsToSite,
  batchStillListed,
  bundleTypeIs,
  cuidContiguousPerProvider,
  emptyBody,
  entriesMatchFilter,
  invalidIdAnswer,
  invalidIdNamesId,
  memberDistinctAcross,
  pageWithinCount,
  pendingListUnchanged,
  requestRefused,
} from '../checks/index.ts';
import type { Exchange, RespondedExchange } from '../core/exchange.ts';
import { bodyOf, bundleResources, hasResponse, isRecord } from '../core/exchange.ts';
import { call, describeOperation, record, runContext, verify } from '../core/suite.ts';
import { DESTRUCTIVE_CHECK, verifyPaging, verifySuccess, walkPages } from './common/steps.ts';

const LIST = 'list-pending-remittances';
const GET = 'get-remittance-details';
const ACK = 'ack-remittance';
const precondition = { id: 'precondition', summary: 'The target holds the data this step needs' };

async function pendingIds(): Promise<{ x: Exchange; ids: string[] }> {
  const x = await call(LIST, { query: { page: '1', count: '50' } });
  const ids = bundleResources(bodyOf(x))
    .map((r) => r.id)
    .filter((id): id is string => typeof id === 'string');
  return { x, ids };
}

const unknownId = () => `no-such-batch-${runContext().seed}`;

/** 2.6 (DEC-D1-50): every provider paid by BACS carries `bankSortCode` and `bankAccountNo` text; undefined without one. */
function bacsBankDetailsPresent(batch: Record<string, unknown>): boolean | undefined {
  const bacs = (Array.isArray(batch.providers) ? batch.providers : [])
    .map((p) => (isRecord(p) && isRecord(p.paymentDetails) ? p.paymentDetails : undefined))
    .filter(
      (d): d is Record<string, unknown> =>
        d !== undefined && typeof d.paymentMethod === 'string' && /\bBACS\b/i.test(d.paymentMethod),
    );
  if (bacs.length === 0) return undefined;
  return bacs.every(
    (d) =>
      typeof d.bankSortCode === 'string' &&
      d.bankSortCode !== '' &&
      typeof d.bankAccountNo === 'string' &&
      d.bankAccountNo !== '',
  );
}

describeOperation(LIST, () => {
  test('the pending list is a collection bundle of batch headers', async () => {
    const { x } = await pendingIds();
    if (
      !verifySuccess(
        x,
        LIST,
        { success: ['D1-4.6-05'], schema: ['D1-4.6-05', 'D1-2.6-01', 'D1-2.1-02', 'D1-2.1-03'] },
        { status: 200 },
      )
    )
      return;
    verify(x, bundleTypeIs('collection'), {
      operation: LIST,
      level: 'MUST',
      requirements: ['D1-4.6-05'],
      decisions: ['DEC-D1-66'],
    });
  });

  test('a page past the last batch is an empty result set, not an error', async () => {
    const x = await call(LIST, { query: { page: '1000', count: '50' } });
    if (!verifySuccess(x, LIST, { success: ['D1-4.6-06'] }, { status: 200 })) return;
    verify(x, pageWithinCount(0), {
      operation: LIST,
      level: 'MUST',
      requirements: ['D1-4.6-06'],
      evidence: { note: 'page 1000 of 50 lies past the pending list, so nothing matches it' },
    });
  });

  test('paging uses maxRecords, echoes the request and does not overlap', async () => {
    const walk = await walkPages(LIST, {}, 2, 5);
    verifyPaging(LIST, walk, 2, {
      tags: ['D1-2.1-05'],
      match: ['D1-2.1-07'],
      bounds: ['D1-2.1-08'],
      total: ['D1-2.1-09'],
    });
  });

  test('a request without a token is refused', async () => {
    const x = await call(LIST, { query: { count: '1' }, omitHeaders: ['Authorization'] });
    verify(x, requestRefused, { operation: LIST, level: 'MUST', requirements: ['D1-5-04'], decisions: ['DEC-D1-21'] });
  });

  test("only the caller site's batches are listed", async () => {
    const foreign = runContext().fixtures.batches?.foreignBatchId;
    const { x, ids } = await pendingIds();
    if (foreign) {
      verify(
        x,
        entriesMatchFilter(`not the other site's batch ${foreign}`, (r) => r.id !== foreign),
        {
          operation: LIST,
          level: 'MUST',
          requirements: ['D1-4.6-04'],
          decisions: ['DEC-D1-64'],
          evidence: { foreignBatchId: foreign },
        },
      );
    }
    if (!runContext().addresses[GET]) return;
    if (foreign) {
      // The answer to Get of another site's batch is not shown (DEC-D1-64): it should not return the batch.
      const other = await call(GET, { path: { id: foreign } });
      verify(other, requestRefused, {
        operation: GET,
        level: 'SHOULD',
        requirements: ['D1-4.6-04'],
        decisions: ['DEC-D1-64'],
        evidence: { foreignBatchId: foreign },
      });
    }
    const fetched: RespondedExchange[] = [];
    for (const id of ids.slice(0, 20)) {
      const detail = await call(GET, { path: { id } });
      if (hasResponse(detail) && detail.response.status === 200) fetched.push(detail);
      if (
        verifySuccess(
          detail,
          GET,
          {
            success: ['D1-4.7-02', 'D1-1-04'],
            schema: [
              'D1-4.7-02',
              'D1-2.6-02',
              'D1-2.6-06',
              'D1-2.6-07',
              'D1-2.6-09',
              'D1-2.6-14',
              'D1-2.6-16',
              'D1-2.6-17',
              'D1-2.6-18',
              'D1-2.6-19',
            ],
          },
          { status: 200, decisions: ['DEC-D1-35', 'DEC-D1-47', 'DEC-D1-48'] },
        )
      ) {
        // msgRecipient names the calling site in a form the documents do not fix (DEC-D1-49): SHOULD.
        verify(detail, batchBelongsToSite(runContext().siteId), {
          operation: GET,
          level: 'SHOULD',
          requirements: ['D1-2.6-05'],
          decisions: ['DEC-D1-49'],
        });
        verify(
          detail,
          entriesMatchFilter('bankSortCode and bankAccountNo present for a BACS payment', bacsBankDetailsPresent),
          { operation: GET, level: 'SHOULD', requirements: ['D1-2.6-13'], decisions: ['DEC-D1-50'] },
        );
      }
    }
    const last = fetched[fetched.length - 1];
    if (last)
      verify({ exchanges: fetched }, memberDistinctAcross('msgId'), {
        operation: GET,
        level: 'MUST',
        requirements: ['D1-2.6-03'],
        exchange: last,
        decisions: ['DEC-D1-49'],
      });
  });
});

describeOperation(GET, () => {
  test('a listed batch is served with contiguous cuids per provider', async () => {
    const { ids } = await pendingIds();
    if (ids.length === 0)
      return record(precondition, 'skip', 'The pending list is empty: no batch to fetch', {
        operation: GET,
        level: 'MUST',
        requirements: ['D1-4.7-02'],
      });
    const x = await call(GET, { path: { id: ids[0] } });
    if (
      !verifySuccess(
        x,
        GET,
        {
          success: ['D1-4.7-02'],
          schema: ['D1-4.7-02', 'D1-2.6-02', 'D1-2.6-09', 'D1-2.6-10', 'D1-2.6-11', 'D1-2.6-14'],
        },
        { status: 200 },
      )
    )
      return;
    verify(x, cuidContiguousPerProvider, {
      operation: GET,
      level: 'MUST',
      requirements: ['D1-2.6-15'],
      decisions: ['DEC-D1-41'],
    });
    verify(x, batchBelongsToSite(runContext().siteId), {
      operation: GET,
      level: 'SHOULD',
      requirements: ['D1-2.6-05'],
      decisions: ['DEC-D1-49'],
    });
  });

  test('getting a batch does not remove it', async () => {
    const { ids } = await pendingIds();
    if (ids.length === 0)
      return record(precondition, 'skip', 'The pending list is empty', {
        operation: GET,
        level: 'MUST',
        requirements: ['D1-3-03'],
      });
    await call(GET, { path: { id: ids[0] } });
    const { x } = await pendingIds();
    verify(x, batchStillListed(ids[0]), { operation: GET, level: 'MUST', requirements: ['D1-3-03'] });
  });

  test('an unknown id gives InvalidId and changes nothing', async () => {
    const id = unknownId();
    const before = await pendingIds();
    const x = await call(GET, { path: { id } });
    verify(x, invalidIdAnswer, {
      operation: GET,
      level: 'MUST',
      requirements: ['D1-4.7-03', 'D1-3-06', 'D1-7-19'],
      decisions: ['DEC-D1-11'],
    });
    verify(x, invalidIdNamesId(id), {
      operation: GET,
      level: 'SHOULD',
      requirements: ['D1-7-20'],
      decisions: ['DEC-D1-11'],
    });
    const after = await pendingIds();
    if (hasResponse(before.x) && hasResponse(after.x))
      verify({ before: before.ids, after: after.x }, pendingListUnchanged, {
        operation: GET,
        level: 'MUST',
        requirements: ['D1-3-08'],
        exchange: after.x,
        decisions: ['DEC-D1-40'],
      });
  });
});

describeOperation(ACK, () => {
  const destructive = () => runContext().allowDestructive;
  const omitted = (requirements: string[]) =>
    record(
      DESTRUCTIVE_CHECK,
      'omit',
      'needs --allow-destructive: acknowledging a batch removes it from the pending list',
      { operation: ACK, level: 'MUST', requirements },
    );

  test('an unknown id gives InvalidId and changes nothing', async () => {
    if (!destructive()) return omitted(['D1-3-04', 'D1-4.8-03']);
    const before = await pendingIds();
    const id = unknownId();
    const x = await call(ACK, { path: { id } });
    verify(x, invalidIdAnswer, {
      operation: ACK,
      level: 'MUST',
      requirements: ['D1-4.8-03', 'D1-3-04', 'D1-7-19'],
      decisions: ['DEC-D1-11'],
    });
    verify(x, invalidIdNamesId(id), { operation: ACK, level: 'SHOULD', requirements: ['D1-7-20'] });
    const after = await pendingIds();
    if (hasResponse(after.x))
      verify({ before: before.ids, after: after.x }, pendingListUnchanged, {
        operation: ACK,
        level: 'MUST',
        requirements: ['D1-3-08'],
        exchange: after.x,
        decisions: ['DEC-D1-40'],
      });
  });

  describe('acknowledging a pending batch', () => {
    test('list, get, acknowledge, gone, acknowledge again gives InvalidId', async () => {
      if (!destructive()) return omitted(['D1-3-01', 'D1-3-02', 'D1-3-05', 'D1-3-07', 'D1-4.8-02']);
      const { ids } = await pendingIds();
      const target = runContext().fixtures.batches?.ackId ?? ids[ids.length - 1];
      if (!target)
        return record(precondition, 'skip', 'The pending list is empty: no batch to acknowledge', {
          operation: ACK,
          level: 'MUST',
          requirements: ['D1-3-01'],
        });
      const got = await call(GET, { path: { id: target } });
      verifySuccess(got, GET, { success: ['D1-4.7-02'] }, { status: 200 });
      const ack = await call(ACK, { path: { id: target } });
      verifySuccess(ack, ACK, { success: ['D1-4.8-02', 'D1-3-01'] }, { status: 200 });
      verify(ack, emptyBody, { operation: ACK, level: 'MUST', requirements: ['D1-4.8-02'] });
      if (!hasResponse(ack) || ack.response.status >= 300) return;
      const { x: listed } = await pendingIds();
      verify(listed, acknowledgedBatchGone(target), { operation: ACK, level: 'MUST', requirements: ['D1-3-02'] });
      const getAgain = await call(GET, { path: { id: target } });
      verify(getAgain, invalidIdAnswer, {
        operation: ACK,
        level: 'MUST',
        requirements: ['D1-3-07'],
        decisions: ['DEC-D1-11'],
      });
      const ackAgain = await call(ACK, { path: { id: target } });
      verify(ackAgain, invalidIdAnswer, {
        operation: ACK,
        level: 'MUST',
        requirements: ['D1-3-05'],
        decisions: ['DEC-D1-11'],
      });
    });
  });

  test('a request without a token is refused', async () => {
    if (!destructive()) return omitted(['D1-5-04']);
    const x = await call(ACK, { path: { id: unknownId() }, omitHeaders: ['Authorization'] });
    verify(x, requestRefused, { operation: ACK, level: 'MUST', requirements: ['D1-5-04'], decisions: ['DEC-D1-21'] });
  });
});
