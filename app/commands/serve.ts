/** `conformance serve`: the sandbox (the reference server) until Ctrl-C. */
import { type Command, integer, parse } from './command.ts';
import { onInterrupt } from './interrupt.ts';
import { faultNames, variantNames } from './sandboxOptions.ts';

export const serve: Command = {
  help: {
    usage: ['serve [--port N] [--host H] [--fault NAME]... [--variant NAME]...'],
    summary: 'serve the sandbox (the reference server) until Ctrl-C',
    options: [
      ['--port N', 'port to listen on (default 0: any free port)'],
      ['--host H', 'address to listen on (default 127.0.0.1)'],
      ['--fault NAME', 'switch on a named fault'],
      ['--variant NAME', 'switch on a named variant'],
    ],
  },
  async run(argv, io) {
    const { values } = parse(argv, {
      port: { type: 'string' },
      host: { type: 'string' },
      fault: { type: 'string', multiple: true },
      variant: { type: 'string', multiple: true },
    });
    const port = integer('port', values.port as string | undefined, 0, 65535) ?? 0;
    const [faults, variants] = [await faultNames(values), await variantNames(values)];
    const { startSandbox } = await import('../../server/http.ts');
    const sandbox = await startSandbox({
      host: (values.host as string | undefined) ?? '127.0.0.1',
      port,
      faults,
      variants,
    });
    io.out(`listening on ${sandbox.url}`);
    // Ctrl-C closes the sandbox (a second one ends the process at once).
    await new Promise<void>((resolve) => onInterrupt(resolve));
    await sandbox.close();
    return 0;
  },
};
