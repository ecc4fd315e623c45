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

export async function listPendingRemittances(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const caller = await authorise(req, ctx, LIST_OP);
  const values = readParameters(ctx, { operationId: LIST_OP, profile: CLEARING_PROFILE, source: req.query });
  const batches = await ctx.repo.pendingBatches(caller.siteId);
  return ok(
    pagedBundle({
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
  // Site isolation: another site's batch is an unknown id.
  return { id, batch: await ctx.repo.pendingBatch(caller.siteId, id) };
}

export async function getRemittanceDetails(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const { id, batch } = await pendingBatchOf(req, ctx, GET_OP);
  if (!batch) throw new InvalidIdError(id);
  return ok(batchObjectOf(batch));
}

export async function ackRemittance(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const { id, batch } = await pendingBatchOf(req, ctx, ACK_OP);
  if (!batch) throw new InvalidIdError(id);
  // The removal decides, not the read before it: of two acknowledgements at once, one wins.
  if (!(await ctx.repo.removeBatch(batch.id))) throw new InvalidIdError(id);
  return { status: 200 };
}
