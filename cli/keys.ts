/** `conformance keys generate|sign|retire`: an Ed25519 signing key pair, a report folder signed with it, a key set marked retired. */
import {
  type Command,
  existsAsFile,
  existsAsReadableFile,
  outFolder,
  parse,
  SetupProblem,
  UsageError,
} from './command.ts';

/** The files `keys generate` writes into its folder. */
export const PRIVATE_KEY_FILE = 'signing-key.pem';
export const JWKS_FILE = 'jwks.json';

export const keys: Command = {
  help: {
    usage: [
      'keys generate [--out DIR] [--kid ID]',
      'keys sign DIR --key FILE --signer NAME [--kid ID] [--run-id ID] [--certificate ID [--certificate-expires DATE]]',
      'keys retire JWKS [--not-after DATE]',
    ],
    summary:
      'signing keys: generate an Ed25519 key pair, sign a report folder with it (signature.jws), mark public keys retired',
    options: [
      [
        '--out DIR',
        `generate: where ${PRIVATE_KEY_FILE} (the private key, mode 0600) and ${JWKS_FILE} (the public key set) are written (default conformance-keys)`,
      ],
      [
        '--kid ID',
        "generate: the key's id (default its RFC 7638 thumbprint); sign: override the id the key file names",
      ],
      ['--key FILE', 'sign: the private key (PEM) to sign with'],
      ['--signer NAME', 'sign: who signs (the operator), as verify-report prints it'],
      ['--run-id ID', 'sign: the run id at the signer (default: the results digest)'],
      ['--certificate ID', 'sign: the certificate the run backs'],
      [
        '--certificate-expires DATE',
        'sign: when that certificate expires (an ISO 8601 date-time), stated in the signature',
      ],
      [
        '--not-after DATE',
        'retire: when the keys of the set stopped signing (an ISO 8601 date-time, default now), written as "notAfter" into each key without one; the set is then a service\'s --retired-keys',
      ],
    ],
  },
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const { KeyProblem } = await import('../core/signing.ts');
    try {
      if (sub === 'generate') return await generate(rest, io);
      if (sub === 'sign') return await sign(rest, io);
      if (sub === 'retire') return await retire(rest, io);
    } catch (e) {
      if (e instanceof KeyProblem) throw new UsageError(e.message);
      throw e;
    }
    throw new UsageError(
      sub === undefined
        ? 'keys needs generate, sign or retire'
        : `Unknown keys command ${JSON.stringify(sub)} (generate, sign or retire)`,
    );
  },
};

async function generate(argv: string[], io: Parameters<Command['run']>[1]): Promise<number> {
  const { values } = parse(argv, { out: { type: 'string' }, kid: { type: 'string' } });
  const out = (values.out as string | undefined) ?? 'conformance-keys';
  if (out === '') throw new UsageError('--out must not be empty');
  if (existsAsFile(out)) throw new UsageError(`--out ${out} is a file, not a folder`);
  const { join } = await import('node:path');
  const privatePath = join(out, PRIVATE_KEY_FILE);
  const jwksPath = join(out, JWKS_FILE);
  // A private key is never overwritten: it may sign certificates already issued.
  if (existsAsFile(privatePath)) throw new SetupProblem(`${privatePath} exists; a signing key is never overwritten`);
  const { generateSigningKeyPair } = await import('../core/signing.ts');
  const pair = await generateSigningKeyPair(values.kid as string | undefined);
  outFolder(out);
  const { writeFileSync } = await import('node:fs');
  try {
    writeFileSync(privatePath, pair.privatePem, { mode: 0o600, flag: 'wx' });
    writeFileSync(jwksPath, `${JSON.stringify(pair.jwks, null, 2)}\n`, 'utf8');
  } catch (e) {
    throw new SetupProblem(`cannot write into ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  io.out(`Key ${pair.kid}: private key ${privatePath} (mode 0600, keep it secret), public key set ${jwksPath}`);
  return 0;
}

async function sign(argv: string[], io: Parameters<Command['run']>[1]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      key: { type: 'string' },
      signer: { type: 'string' },
      kid: { type: 'string' },
      'run-id': { type: 'string' },
      certificate: { type: 'string' },
      'certificate-expires': { type: 'string' },
    },
    true,
  );
  const [dir, ...extra] = positionals;
  if (dir === undefined || extra.length > 0) throw new UsageError('keys sign needs exactly one report folder');
  const keyFile = values.key as string | undefined;
  if (keyFile === undefined)
    throw new UsageError('keys sign needs --key FILE (a private key, as keys generate writes)');
  if (!existsAsReadableFile(keyFile)) throw new UsageError(`--key ${keyFile} is not a readable file`);
  const signer = (values.signer as string | undefined)?.trim();
  if (!signer) throw new UsageError('keys sign needs --signer NAME (who signs, as verify-report prints it)');
  for (const name of ['kid', 'run-id', 'certificate'] as const) {
    const v = values[name] as string | undefined;
    if (v !== undefined && !/^[\w.:-]{1,200}$/.test(v))
      throw new UsageError(`--${name} must be letters, digits, '.', ':', '_' or '-', received ${JSON.stringify(v)}`);
  }
  const expires = values['certificate-expires'] as string | undefined;
  if (expires !== undefined && values.certificate === undefined)
    throw new UsageError('--certificate-expires goes with --certificate ID');
  if (expires !== undefined && (!/^\d{4}-\d{2}-\d{2}T/.test(expires) || Number.isNaN(Date.parse(expires))))
    throw new UsageError(`--certificate-expires must be an ISO 8601 date-time, received ${JSON.stringify(expires)}`);
  const { readFileSync } = await import('node:fs');
  const { signingKeyFromPem } = await import('../core/signing.ts');
  const key = await signingKeyFromPem(readFileSync(keyFile, 'utf8'), values.kid as string | undefined);
  const { NotSignable, signReportDir } = await import('../reports/verifySignature.ts');
  try {
    const { statement } = await signReportDir(dir, {
      key,
      signer,
      ...(values['run-id'] !== undefined ? { runId: values['run-id'] as string } : {}),
      ...(values.certificate !== undefined ? { certificate: values.certificate as string } : {}),
      ...(expires !== undefined ? { certificateExpiresAt: new Date(expires).toISOString() } : {}),
    });
    io.out(`Signed ${dir} as ${statement.signer} (key ${key.kid}, ${statement.signedAt}): signature.jws`);
    return 0;
  } catch (e) {
    if (e instanceof NotSignable) throw new SetupProblem(e.message);
    // An unreadable folder or results.json: one line.
    if (/^(Cannot read|.* is not a results file)/.test((e as Error).message))
      throw new SetupProblem((e as Error).message);
    throw e;
  }
}

/** `keys retire JWKS`: each public key of the set says when it stopped signing (`notAfter`). */
async function retire(argv: string[], io: Parameters<Command['run']>[1]): Promise<number> {
  const { values, positionals } = parse(argv, { 'not-after': { type: 'string' } }, true);
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0)
    throw new UsageError('keys retire needs exactly one public key set (jwks.json)');
  const when = values['not-after'] as string | undefined;
  if (when !== undefined && (!/^\d{4}-\d{2}-\d{2}T/.test(when) || Number.isNaN(Date.parse(when))))
    throw new UsageError(`--not-after must be an ISO 8601 date-time, received ${JSON.stringify(when)}`);
  const notAfter = new Date(when ?? Date.now()).toISOString();
  const { readFileSync, writeFileSync, renameSync } = await import('node:fs');
  let set: { keys?: unknown };
  try {
    set = JSON.parse(readFileSync(file, 'utf8')) as { keys?: unknown };
  } catch (e) {
    throw new SetupProblem(
      `${file} cannot be read as a key set: ${e instanceof SyntaxError ? 'it is not JSON' : ((e as NodeJS.ErrnoException).code ?? (e as Error).message)}`,
    );
  }
  if (!Array.isArray(set.keys))
    throw new SetupProblem(`Expected a JWK set ({"keys": [...]}) in ${file}, received something else`);
  const keys = set.keys as Record<string, unknown>[];
  if (keys.some((k) => k !== null && typeof k === 'object' && 'd' in k))
    throw new SetupProblem(`${file} holds a private key: retire the public key set (the jwks.json of keys generate)`);
  const marked = keys.filter((k) => k !== null && typeof k === 'object' && k.notAfter === undefined);
  for (const k of marked) k.notAfter = notAfter;
  // Written whole, then renamed: a reader never sees half a key set.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(set, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  io.out(
    marked.length === 0
      ? `${file}: every key already says when it stopped signing; nothing changed`
      : `${file}: ${marked.map((k) => String(k.kid)).join(', ')} retired, not after ${notAfter} (give the file as the service's --retired-keys)`,
  );
  return 0;
}
