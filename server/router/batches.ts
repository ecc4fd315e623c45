/**
 * Clearing remittance batches (Document 1, 2.6, 3, 4.6-4.8; DEC-D1-11): list the token site's
 * pending batches, get one, acknowledge (remove) one. Another site's batch is an unknown id.
 */
import type { Batch } from '../repo/model.ts';
import { batchHeaderOf, batchObjectOf } from '../resources/batch.ts';
import { authorise } from './auth.ts';
import { InvalidIdError } from './errors.ts';
import { pagedBundle, pagingOf } from './paging.ts';
import { CLEARING_PROFILE, readParameters } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const LIST_OP = 'list-pending-remittances';
const GET_OP = 'get-remittance-details';
const ACK_OP = 'ack-remittance';

/** Site isolation: a caller sees only its own site's batches. */
function visibleTo(siteId: string, ctx: SandboxContext, operationId: string): (b: Batch) => boolean {
  const everySite = ctx.faults.on('batch-other-site-listed', operationId);
  return (b) => everySite || b.siteId === siteId;
}

export async function listPendingRemittances(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const caller = await authorise(req, ctx, LIST_OP);
  const values = readParameters(ctx, { operationId: LIST_OP, profile: CLEARING_PROFILE, source: req.query });
  const batches = (await ctx.repo.pendingBatches(undefined)).filter(visibleTo(caller.siteId, ctx, LIST_OP));
  return ok(
    pagedBundle(ctx, {
      operationId: LIST_OP,
      type: 'collection',
      matches: batches,
      paging: pagingOf(values),
      totalTag: 'maxRecords',
      entry: (b) => ({ resource: batchHeaderOf(b) }),
    }),
  );
}

async function pendingBatchOf(
  req: SandboxRequest,
  ctx: SandboxContext,
  operationId: string,
): Promise<{ id: string; batch?: Batch }> {
  const caller = await authorise(req, ctx, operationId);
  const { id } = readParameters(ctx, { operationId, profile: CLEARING_PROFILE, source: req.query, path: req.params });
  const batch = await ctx.repo.pendingBatch(id);
  return { id, batch: batch && visibleTo(caller.siteId, ctx, operationId)(batch) ? batch : undefined };
}

export async function getRemittanceDetails(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const { id, batch } = await pendingBatchOf(req, ctx, GET_OP);
  if (!batch) {
    if (ctx.faults.on('invalid-id-200', GET_OP)) return ok({});
    throw new InvalidIdError(id);
  }
  const body = batchObjectOf(batch);
  if (ctx.faults.on('batch-msgid-repeated', GET_OP)) body.msgId = '1';
  return ok(body);
}

export async function ackRemittance(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const { id, batch } = await pendingBatchOf(req, ctx, ACK_OP);
  if (!batch) throw new InvalidIdError(id);
  if (!ctx.faults.on('ack-keeps-batch', ACK_OP)) await ctx.repo.removeBatch(batch.id);
  return { status: ctx.faults.on('ack-returns-204', ACK_OP) ? 204 : 200 };
}
