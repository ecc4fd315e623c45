/**
 * Ctrl-C (SIGINT) and SIGTERM, honoured from the command's first moment: the process ends at once
 * with exit 130 (its report folder left as it was, its temporary files removed on exit), unless a
 * command has said how it stops (a run that has judged something finishes the suites running and
 * writes the report; `serve` closes the sandbox; `certify-client` judges what the client did). A
 * second signal always ends the process at once.
 */
import { EXIT, type Out } from './command.ts';

let graceful: (() => void) | undefined;
let err: Out['err'] = (line) => process.stderr.write(`${line}\n`);

/** Ends the process at once, exit 130, with one line saying why. */
export function endInterrupted(reason = 'interrupted'): never {
  err(`conformance: ${reason}`);
  process.exit(EXIT.interrupted);
}

/** Installs the handling for the whole command (bin/cli.ts, first thing); answers its removal. */
export function handleInterrupts(io: Pick<Out, 'err'>): () => void {
  err = io.err;
  const listener = () => {
    const handler = graceful;
    graceful = undefined;
    if (handler) handler();
    else endInterrupted();
  };
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
  return () => {
    process.off('SIGINT', listener);
    process.off('SIGTERM', listener);
    graceful = undefined;
  };
}

/** While the answered removal is not called, the next signal calls `handler` instead of ending the process. */
export function onInterrupt(handler: () => void): () => void {
  graceful = handler;
  return () => {
    if (graceful === handler) graceful = undefined;
  };
}
