/**
 * The child process of verifyInChild.ts: verifies once, sends the outcome back and ends. An error
 * of the suite itself is sent as a problem line, never a stack trace.
 */
import { verifyInteractions } from './verify.ts';
import type { ChildVerifyOptions } from './verifyInChild.ts';

process.once('message', async (opts: ChildVerifyOptions) => {
  let answer: Awaited<ReturnType<typeof verifyInteractions>>;
  try {
    answer = await verifyInteractions(opts);
  } catch (e) {
    answer = { problem: `internal error of the pact verification: ${(e as Error).message.split('\n')[0]}` };
  }
  process.send?.(answer, () => process.exit(0));
});
