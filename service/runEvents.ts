/**
 * A run's live progress as server-sent events. The progress is read from the run's row, which the
 * worker running it updates (service/jobs/performRun.ts), so a page served by one machine follows
 * a run on another: `progress` when it changes, `done` when the run has ended (finished, failed or cancelled).
 *
 * One person holds at most settings.eventStreamsPerUser streams open at once (in this process:
 * each stream polls the database); the next is answered 429 with one line, until one closes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from './context.ts';

const POLL_MS = 500;

/** A run's progress (its row's JSON) for people. */
export function progressText(progress: string | null): string {
  if (!progress) return 'waiting for a worker';
  const p = JSON.parse(progress) as { done: number; total: number; running: string[] };
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
    const data = JSON.stringify({ state: run.state, attempt: run.attempt, text: progressText(run.progress) });
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
