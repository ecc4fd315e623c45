/**
 * A run's live progress as server-sent events. The progress is read from the run's row, which the
 * worker running it updates (service/jobs/performRun.ts), so a page served by one machine follows
 * a run on another: `progress` when it changes (the run's state, its progress line, and its progress
 * read by readProgress: suites done, operations with their state and counts), `done` when the run
 * has ended (finished, failed or cancelled); the page then shows the outcome without a reload.
 *
 * One person holds at most settings.eventStreamsPerUser streams open at once (in this process:
 * each stream polls the database); the next is answered 429 with one line, until one closes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUSES, type Verdict } from '../core/results.ts';
import type { ServiceContext } from './context.ts';
import type { OperationProgress, OperationState, ProgressRow } from './jobs/runProgress.ts';

const POLL_MS = 500;

/**
 * A run's progress as its row holds it (service/jobs/runProgress.ts), read member by member: only
 * the known members of the known types are kept, so that nothing else a row's JSON may hold (a
 * client run's sealed workspace secrets) ever reaches a page or an event stream. Undefined when
 * there is none (no worker has taken the run) or it cannot be read.
 */
export function readProgress(progress: string | null): ProgressRow | undefined {
  if (!progress) return undefined;
  let p: unknown;
  try {
    p = JSON.parse(progress);
  } catch {
    return undefined;
  }
  if (typeof p !== 'object' || p === null) return undefined;
  const o = p as Record<string, unknown>;
  const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
  const row: ProgressRow = {
    done: count(o.done),
    total: count(o.total),
    running: Array.isArray(o.running) ? o.running.filter((s): s is string => typeof s === 'string') : [],
  };
  if (Array.isArray(o.operations)) {
    row.operations = o.operations.flatMap((e: unknown): OperationProgress[] => {
      if (typeof e !== 'object' || e === null) return [];
      const op = e as Record<string, unknown>;
      if (typeof op.id !== 'string') return [];
      const state = OPERATION_STATES.find((s) => s === op.state) ?? 'waiting';
      const entry: OperationProgress = { id: op.id, state };
      const verdict = VERDICTS.find((v) => v === op.verdict);
      if (verdict) entry.verdict = verdict;
      for (const s of STATUSES) if (count(op[s]) > 0) entry[s] = count(op[s]);
      return [entry];
    });
  }
  return row;
}

const OPERATION_STATES: readonly OperationState[] = ['waiting', 'running', 'done'];
const VERDICTS: readonly Verdict[] = ['conformant', 'not-conformant', 'inconclusive'];

/** A run's progress (its row's JSON) for people: one line. */
export function progressText(progress: string | null): string {
  const p = readProgress(progress);
  if (!p) return 'waiting for a worker';
  return `${p.done} of ${p.total} suites done${p.running.length > 0 ? ` (running ${p.running.join(', ')})` : ''}`;
}

/** Open streams per person, per service (a test process may hold several services). */
const OPEN = new WeakMap<ServiceContext, Map<string, number>>();

export async function streamRunEvents(
  ctx: ServiceContext,
  runId: string,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  const open = OPEN.get(ctx) ?? new Map<string, number>();
  OPEN.set(ctx, open);
  const limit = ctx.settings.eventStreamsPerUser;
  if ((open.get(userId) ?? 0) >= limit) {
    await reply
      .code(429)
      .type('application/json')
      .send({
        error: `Expected at most ${limit} live progress streams open per person, received one more: close a run page, then reload.`,
      });
    return;
  }
  open.set(userId, (open.get(userId) ?? 0) + 1);
  let counted = true;
  const release = () => {
    if (!counted) return;
    counted = false;
    const n = (open.get(userId) ?? 1) - 1;
    if (n > 0) open.set(userId, n);
    else open.delete(userId);
  };
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let closed = false;
  const onClose = () => {
    closed = true;
    release();
  };
  request.raw.on('close', onClose);
  out.on('close', onClose);
  let last = '';
  while (!closed) {
    const run = await ctx.db
      .selectFrom('runs')
      .select(['state', 'progress', 'verdict', 'attempt'])
      .where('id', '=', runId)
      .executeTakeFirst()
      .catch(() => undefined);
    if (!run) break;
    // The line the page shows (its fallback), and the progress read member by member for its bar and table.
    const data = JSON.stringify({
      state: run.state,
      attempt: run.attempt,
      text: progressText(run.progress),
      progress: readProgress(run.progress) ?? null,
    });
    if (data !== last) {
      out.write(`event: progress\ndata: ${data}\n\n`);
      last = data;
    }
    if (run.state === 'finished' || run.state === 'failed' || run.state === 'cancelled') {
      out.write(`event: done\ndata: ${JSON.stringify({ state: run.state, verdict: run.verdict })}\n\n`);
      break;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  release();
  out.end();
}
