/**
 * The embedded engine's jobs: the queue is the runs table itself. A worker loop in the service's
 * process claims the oldest run that may start (service/jobs/claims.ts) whenever a run is queued,
 * a run ends, or a second passes. One process owns an embedded database: at start every run left
 * running belonged to a process that died, and is queued again or failed.
 */
import { hostname } from 'node:os';
import type { RunQueue, ServiceContext } from '../context.ts';
import type { RunKind } from '../db/schema.ts';
import { claimNextRun, recoverRuns } from './claims.ts';
import { performJob } from './performJob.ts';

export interface WorkerPool extends RunQueue {
  /** Stops claiming; runs in flight are stopped and given back to the queue. */
  stop(): Promise<void>;
  /** Runs being performed by this process. */
  readonly active: number;
}

export async function startEmbeddedQueue(ctx: ServiceContext): Promise<WorkerPool> {
  const worker = `${hostname()}:${process.pid}`;
  await recoverRuns(ctx, { everyRunning: true });
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  /** The workspaces among them: they have room of their own (settings.workspaceConcurrency). */
  const workspaces = new Set<Promise<void>>();
  let looking = false;
  let again = false;

  const look = async (): Promise<void> => {
    if (looking) {
      again = true;
      return;
    }
    looking = true;
    try {
      do {
        again = false;
        while (!stopping.signal.aborted) {
          const kinds: RunKind[] = [
            ...(inFlight.size - workspaces.size < ctx.settings.workerConcurrency ? (['server', 'pact'] as const) : []),
            ...(workspaces.size < ctx.settings.workspaceConcurrency ? (['client'] as const) : []),
          ];
          const claim = await claimNextRun(ctx, worker, kinds);
          if (!claim) break;
          const job: Promise<void> = performJob(ctx, claim, stopping.signal).finally(() => {
            inFlight.delete(job);
            workspaces.delete(job);
            void look();
          });
          inFlight.add(job);
          if (claim.kind === 'client') workspaces.add(job);
        }
      } while (again && !stopping.signal.aborted);
    } catch {
      // The database answered with an error: the next tick looks again.
    } finally {
      looking = false;
    }
  };
  const tick = setInterval(() => void look(), 1000);
  void look();
  return {
    async enqueue() {
      void look();
    },
    get active() {
      return inFlight.size;
    },
    async stop() {
      clearInterval(tick);
      stopping.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}
