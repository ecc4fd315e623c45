/**
 * One measured run for the benchmark (scripts/bench.mjs): what `conformance start` does (the
 * sandbox in this process, every operation, destructive steps on), in a fresh process so that its
 * peak memory is its own. Prints one JSON line of figures: with the requests the sandbox received
 * and the most it held at once. Arguments: runs, then optionally the sandbox's latency in ms
 * (`serve --latency`) and the run's concurrency (default: the config's, 8).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformance } from '../app/runConformance.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { startSandbox } from '../server/http.ts';

const runs = Number(process.argv[2] ?? 25);
const latencyMs = Number(process.argv[3] ?? 0);
const concurrency = process.argv[4] ? Number(process.argv[4]) : undefined;
const dir = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
const sandbox = await startSandbox({ latencyMs });
try {
  const outcome = await runConformance({
    target: sandbox.url,
    config: DEMO_CONFIG_FILE,
    environmentFallbacks: DEMO_ENVIRONMENT,
    reportDir: dir,
    allowDestructive: true,
    seed: 1,
    runs,
    ...(concurrency !== undefined ? { concurrency } : {}),
  });
  const exchanges = outcome.results?.exchanges ?? [];
  process.stdout.write(
    `${JSON.stringify({
      runs,
      exitCode: outcome.exitCode,
      suiteWorkers: outcome.suiteWorkers,
      verdict: outcome.results?.verdict,
      results: outcome.results?.results.length ?? 0,
      timings: outcome.timings,
      wall: performance.now(),
      exchanges: exchanges.length,
      exchangeMs: exchanges.reduce((sum, x) => sum + (x.duration ?? 0), 0),
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      requests: sandbox.load().requests,
      mostInFlight: sandbox.load().mostInFlight,
      cpuMs: (process.resourceUsage().userCPUTime + process.resourceUsage().systemCPUTime) / 1000,
    })}\n`,
  );
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
