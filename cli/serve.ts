/** `conformance serve`: the sandbox (the reference server) until Ctrl-C. */
import { type Command, integer, parse, UsageError } from './command.ts';
import { onInterrupt } from './interrupt.ts';
import { faultNames, variantNames } from './sandboxOptions.ts';

export const serve: Command = {
  help: {
    usage: [
      'serve [--port N] [--host H] [--public-url URL | --trust-proxy] [--tls-cert FILE --tls-key FILE] [--latency MS] [--fault NAME]... [--variant NAME]...',
    ],
    summary: 'serve the sandbox (the reference server) until Ctrl-C',
    options: [
      ['--port N', 'port to listen on (default 0: any free port)'],
      ['--host H', 'address to listen on (default 127.0.0.1)'],
      [
        '--public-url URL',
        'the address clients reach the sandbox at (behind a TLS front or gateway): discovery documents name it',
      ],
      [
        '--trust-proxy',
        'honour X-Forwarded-Proto and X-Forwarded-Host from a proxy in front, so discovery names the address the client used',
      ],
      ['--tls-cert FILE', 'serve https with this certificate (PEM; with --tls-key)'],
      ['--tls-key FILE', 'the private key of --tls-cert (PEM)'],
      [
        '--latency MS',
        'wait MS milliseconds before answering each request, as a server in another region would (0 to 60000; default 0)',
      ],
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
      'public-url': { type: 'string' },
      'trust-proxy': { type: 'boolean' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      latency: { type: 'string' },
    });
    const port = integer('port', values.port as string | undefined, 0, 65535) ?? 0;
    const latencyMs = integer('latency', values.latency as string | undefined, 0, 60_000) ?? 0;
    const publicUrl = values['public-url'] as string | undefined;
    if (publicUrl !== undefined) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(publicUrl);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash)
        throw new UsageError(`--public-url must be an http or https address, received ${JSON.stringify(publicUrl)}`);
      if (values['trust-proxy'])
        throw new UsageError('--public-url names the address; --trust-proxy reads it from the proxy: give one');
    }
    const [certFile, keyFile] = [values['tls-cert'] as string | undefined, values['tls-key'] as string | undefined];
    if ((certFile === undefined) !== (keyFile === undefined))
      throw new UsageError('--tls-cert and --tls-key go together: give both');
    let tls: { cert: Buffer; key: Buffer } | undefined;
    if (certFile !== undefined && keyFile !== undefined) {
      const { readFileSync } = await import('node:fs');
      const read = (option: string, file: string) => {
        try {
          return readFileSync(file);
        } catch (e) {
          throw new UsageError(`${option} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
        }
      };
      tls = { cert: read('--tls-cert', certFile), key: read('--tls-key', keyFile) };
    }
    const [faults, variants] = [await faultNames(values), await variantNames(values)];
    const { startSandbox } = await import('../server/http.ts');
    let sandbox: Awaited<ReturnType<typeof startSandbox>>;
    try {
      sandbox = await startSandbox({
        host: (values.host as string | undefined) ?? '127.0.0.1',
        port,
        faults,
        variants,
        ...(publicUrl ? { publicUrl } : {}),
        ...(values['trust-proxy'] ? { trustProxy: true } : {}),
        ...(tls ? { tls } : {}),
        ...(latencyMs > 0 ? { latencyMs } : {}),
      });
    } catch (e) {
      // A certificate and key that do not make a TLS server (not PEM, not a pair) are the user's to fix.
      if (tls && /PEM|key|certificate|asn1|DECODER/i.test((e as Error).message))
        throw new UsageError(
          `--tls-cert and --tls-key do not make a TLS server: ${(e as Error).message.split('\n')[0]}`,
        );
      throw e;
    }
    io.out(`listening on ${sandbox.url}${latencyMs > 0 ? ` (answering each request after ${latencyMs} ms)` : ''}`);
    // Ctrl-C closes the sandbox (a second one ends the process at once).
    await new Promise<void>((resolve) => onInterrupt(resolve));
    await sandbox.close();
    return 0;
  },
};
