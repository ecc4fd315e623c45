/**
 * `conformance init`: a starter config naming its JSON Schema (editor completion and help), every
 * address written once (`services.base` with per-service paths, one `tokenUrl`). With `--target`
 * it first reads the target's discovery documents and token endpoint (app/initFromDiscovery.ts),
 * writes what it found and says what is left to fill.
 */
import { commandName } from '../core/commandName.ts';
import { type Command, parse, SetupProblem, UsageError } from './command.ts';

export const init: Command = {
  help: {
    usage: ['init [--target URL [--ca-file FILE] [--client-cert FILE --client-key FILE]] [--out FILE] [--force]'],
    summary: 'write a starter config that names its JSON Schema; with --target, filled from the target',
    options: [
      ['--target URL', "read the target's discovery documents and token endpoint and write the addresses that answer"],
      [
        '--ca-file FILE',
        "with --target: the CA that signed the target's certificate (a private one); written as http.caFile",
      ],
      [
        '--client-cert FILE',
        'with --target: the client certificate the target demands (mTLS), with --client-key; written as http.clientCertFile',
      ],
      ['--client-key FILE', 'the key of --client-cert (unencrypted here; written as http.clientKeyFile)'],
      ['--out FILE', 'where to write it (default conformance.config.json)'],
      ['--force', 'overwrite an existing file'],
    ],
  },
  async run(argv, io) {
    const { values } = parse(argv, {
      target: { type: 'string' },
      'ca-file': { type: 'string' },
      'client-cert': { type: 'string' },
      'client-key': { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
    });
    const out = (values.out as string | undefined) ?? 'conformance.config.json';
    const target = values.target === undefined ? undefined : targetOf(values.target as string);
    const { existsSync, writeFileSync } = await import('node:fs');
    const { dirname, relative, resolve } = await import('node:path');
    const { fileURLToPath } = await import('node:url');
    if (existsSync(out) && !values.force) throw new UsageError(`${out} exists; give --force to overwrite it`);
    const { ConfigError, httpSettings, readConfigFile, variablesNamed } = await import('../core/config.ts');
    const { DEMO_CONFIG_FILE } = await import('../server/demoConfig.ts');
    const { readTarget, starterConfig } = await import('../app/initFromDiscovery.ts');
    const connection = connectionOptions(values);
    if (connection.given && target === undefined)
      throw new UsageError('--ca-file, --client-cert and --client-key go with --target (the target init reads)');
    let findings: Awaited<ReturnType<typeof readTarget>> | undefined;
    if (target !== undefined) {
      const { HttpClient } = await import('../core/http.ts');
      let http: ReturnType<typeof httpSettings>;
      try {
        // Read as a config's http section would be (paths from the working folder, proxies from the environment).
        http = httpSettings(connection.section, process.cwd(), () => '', process.env);
      } catch (e) {
        if (e instanceof ConfigError) throw new UsageError(asOptions(e.message));
        throw e;
      }
      const client = new HttpClient({ ...http, timeoutMs: 10_000, maxResponseBytes: 1024 * 1024, concurrency: 4 });
      try {
        findings = await readTarget(target, client);
      } finally {
        await client.close();
      }
    }
    if (findings && !findings.reached)
      throw new SetupProblem(
        `Target unreachable: ${asOptions(findings.unreachable ?? 'no answer')} (init reads the discovery documents of ${target}); nothing written`,
      );
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
    let schema = relative(dirname(resolve(out)), resolve(root, 'core/config.schema.json')).replaceAll('\\', '/');
    if (!schema.startsWith('.')) schema = `./${schema}`;
    const starter = starterConfig(readConfigFile(DEMO_CONFIG_FILE), schema, findings);
    if (connection.given) {
      // Paths as the config reads them: from its own folder.
      const from = (file: string) => relative(dirname(resolve(out)), resolve(file)).replaceAll('\\', '/') || '.';
      const { caFile, clientCertFile, clientKeyFile } = connection.section;
      starter.http = {
        ...starter.http,
        ...(caFile !== undefined ? { caFile: from(caFile) } : {}),
        ...(clientCertFile !== undefined ? { clientCertFile: from(clientCertFile) } : {}),
        ...(clientKeyFile !== undefined ? { clientKeyFile: from(clientKeyFile) } : {}),
      };
    }
    try {
      writeFileSync(out, `${JSON.stringify(starter, null, 2)}\n`, { flag: values.force ? 'w' : 'wx' });
    } catch (e) {
      throw new UsageError(`cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    io.out(`Wrote ${out} (JSON Schema: ${schema}, whose descriptions editors show; also docs/config.md).`);
    const variables = variablesNamed(starter).join(', ');
    if (!findings) {
      io.out('Next: set the discovery paths (services) and tokenUrl of your target, its siteId and the fixtures');
      io.out(`it holds, export the credential variables the config names (${variables}), then:`);
      io.out(`  ${commandName()} run --target https://your-server --config ${out}`);
      return 0;
    }
    const found = findings.services.filter((s) => s.found);
    const missing = findings.services.filter((s) => !s.found);
    if (found.length === 0 && !findings.token.found)
      io.out(`Read from ${findings.target}: no discovery document with a service's keys, no token endpoint.`);
    else io.out(`Read from ${findings.target}:`);
    for (const s of found)
      if (s.found)
        io.out(`  services.${s.service}.discovery: ${s.found.path} (${s.found.keys} of ${s.found.of} discovery keys)`);
    if (findings.token.found) io.out(`  tokenUrl: ${starter.tokenUrl} (${findings.token.found.how})`);
    for (const s of found)
      if (s.elsewhere)
        io.out(
          `Warning: the ${s.service} discovery document names addresses at ${s.elsewhere}, not at the target's ${new URL(findings.target).origin}: a run calls what discovery names. Behind a TLS front or gateway, make the server publish the address clients use (the sandbox: serve --public-url URL, or --trust-proxy behind a proxy that sets X-Forwarded-Proto and X-Forwarded-Host).`,
        );
    io.out('Left to fill:');
    for (const s of missing)
      io.out(
        `  services.${s.service}.discovery: no document with its keys at ${s.tried.length} addresses; written: ${starter.services?.[s.service]?.discovery} (a guess)`,
      );
    if (missing.length > 1)
      io.out('  (services living elsewhere than the target take one edit for all: services.base)');
    if (!findings.token.found)
      io.out(
        `  tokenUrl: no token endpoint found at ${findings.token.tried.length} addresses; written: ${starter.tokenUrl} (a guess)`,
      );
    io.out("  siteId and fixtures: written with the sandbox's values; name the site and records your target holds");
    io.out(`  the credential variables the config names, to export before a run: ${variables}`);
    io.out(`Next: ${commandName()} run --config ${out}`);
    return 0;
  },
};

/** The TLS options of `init`, as the config's http section names them. */
function connectionOptions(values: Record<string, unknown>): {
  given: boolean;
  section: { caFile?: string; clientCertFile?: string; clientKeyFile?: string };
} {
  const caFile = values['ca-file'] as string | undefined;
  const clientCertFile = values['client-cert'] as string | undefined;
  const clientKeyFile = values['client-key'] as string | undefined;
  if ((clientCertFile === undefined) !== (clientKeyFile === undefined))
    throw new UsageError('--client-cert and --client-key go together (the certificate and its key)');
  return {
    given: caFile !== undefined || clientCertFile !== undefined,
    section: {
      ...(caFile !== undefined ? { caFile } : {}),
      ...(clientCertFile !== undefined ? { clientCertFile, clientKeyFile } : {}),
    },
  };
}

/** A line naming the config's settings, naming init's options instead. */
function asOptions(line: string): string {
  return line
    .replaceAll('http.caFile', '--ca-file')
    .replaceAll('http.clientCertFile', '--client-cert')
    .replaceAll('http.clientKeyFile', '--client-key');
}

/** The target given, as an http or https URL without trailing slashes (a usage error otherwise). */
function targetOf(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(`--target must be an http or https URL, received ${JSON.stringify(value)}`);
  return url.toString().replace(/\/+$/, '');
}
