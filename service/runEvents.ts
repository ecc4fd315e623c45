/**
 * A run's live progress as server-sent events. The progress is read from the run's row, which the
 * worker running it updates (service/jobs/performRun.ts), so a page served by one machine follows
 * a run on another: `progress` when it changes, `done` when the run has ended (finished, failed or cancelled).
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

export async function streamRunEvents(
  ctx: ServiceContext,
  runId: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let closed = false;
  request.raw.on('close', () => {
    closed = true;
  });
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
  out.end();
}
