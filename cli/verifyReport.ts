/**
 * `conformance verify-report`: exit 0 when the folder is as the run wrote it (and, with --key,
 * signed by that key), 1 when altered, signed by an unknown key, unsigned although --key asks for
 * a signature, or its certificate revoked or expired (by its status, or by the expiry its signed
 * statement names); 2 when the folder or the key cannot be read; 3 when the folder is intact and
 * signed but its certificate's status cannot be read (a revoked certificate is never passed for valid).
 * A superseded certificate (a later one of the same product version and scope took its place) is
 * reported, naming the later one, and still exits 0: it states what its run showed.
 */
import { type Command, EXIT, existsAsReadableFile, parse, UsageError } from './command.ts';

const FILE_STATE_TEXT: Record<string, string> = {
  matches: 'matches results.json',
  altered: 'ALTERED (differs from what results.json gives)',
  missing: 'missing',
  'not-comparable': 'not compared (written by another suite version)',
};

const NOT_SIGNED = 'not signed (a local run): no signature.jws';

export const verifyReport: Command = {
  help: {
    usage: ['verify-report DIR [--key FILE|URL]'],
    summary: 'check that a report folder is as its run wrote it, and who signed it (exit 0 intact, 1 altered)',
    options: [
      [
        '--key FILE|URL',
        "check signature.jws too: a public key file (JWK, JWKS or PEM) or a JWKS URL (a certification service's /.well-known/jwks.json); prints who signed, when, the key id and, with a URL, the certificate's status",
      ],
      [
        'exit codes',
        '0 intact (and with --key signed by that key; a superseded certificate is reported); 1 altered, ' +
          '"unknown signer" (signed by another key), not signed although --key was given, or the certificate ' +
          'revoked or expired; 2 folder or key unreadable; 3 intact and signed, but the certificate status could not be read',
      ],
    ],
  },
  async run(argv, io) {
    const { values, positionals } = parse(argv, { key: { type: 'string' } }, true);
    const [dir, ...extra] = positionals;
    if (dir === undefined || extra.length > 0) throw new UsageError('verify-report needs exactly one report folder');
    const keyOption = values.key as string | undefined;
    if (keyOption === '') throw new UsageError('--key must not be empty');
    const isUrl = keyOption !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(keyOption);
    if (keyOption !== undefined && !isUrl && !existsAsReadableFile(keyOption))
      throw new UsageError(`--key ${keyOption} is neither a readable file nor an http(s) URL`);
    const { verifyReportDir } = await import('../reports/writeReports.ts');
    let v: Awaited<ReturnType<typeof verifyReportDir>>;
    try {
      v = await verifyReportDir(dir);
    } catch (e) {
      io.err(`conformance: ${(e as Error).message}`);
      return EXIT.usage;
    }
    const signing = await import('../core/signing.ts');
    const { signaturePresence, verifySignature } = await import('../reports/verifySignature.ts');
    // The key is read before anything is printed: a key that cannot be read is one line, exit 2.
    let keys: Awaited<ReturnType<typeof signing.keySourceFromUrl>> | undefined;
    if (keyOption !== undefined) {
      try {
        keys = isUrl
          ? await signing.keySourceFromUrl(keyOption)
          : await signing.keySourceFromText((await import('node:fs')).readFileSync(keyOption, 'utf8'), keyOption);
      } catch (e) {
        if (e instanceof signing.KeyProblem) {
          io.err(`conformance: ${e.message}`);
          return EXIT.usage;
        }
        throw e;
      }
    }
    // The signature's files are read before anything is printed too: an unreadable one is one line, exit 2.
    let presence: Awaited<ReturnType<typeof signaturePresence>>;
    let s: Awaited<ReturnType<typeof verifySignature>> | undefined;
    try {
      presence = await signaturePresence(dir);
      if (keys !== undefined) s = await verifySignature(dir, keys);
    } catch (e) {
      io.err(`conformance: ${(e as Error).message.split('\n')[0]}`);
      return EXIT.usage;
    }
    const i = v.integrity;
    io.out(
      i.state === 'intact'
        ? `results.json: intact (SHA-256 ${i.digest})`
        : i.state === 'altered'
          ? `results.json: ALTERED (states SHA-256 ${i.stored}, content has ${i.actual})`
          : `results.json: NOT SEALED (no digest; content has SHA-256 ${i.actual})`,
    );
    if (i.state === 'intact' && !v.resultsExact)
      io.out(
        'results.json: ALTERED (its text is not what the run wrote for this content: a member given twice, a number out of range or another edit)',
      );
    for (const f of v.files) io.out(`${f.name}: ${FILE_STATE_TEXT[f.state]}`);

    if (keys === undefined || s === undefined) {
      const { present, stated } = presence;
      // Results that name their signer were sealed to be signed: a missing signature was removed.
      const removed = stated !== undefined && !present;
      io.out(
        `signature: ${
          present
            ? 'signature.jws present, not checked (give --key FILE|URL to check who signed)'
            : removed
              ? `MISSING: results.json states the signer ${stated.name} (key ${stated.kid}) but the folder has no signature.jws`
              : NOT_SIGNED
        }`,
      );
      const intact = v.intact && !removed;
      io.out(intact ? `INTACT: ${v.dir} is as the run wrote it` : `ALTERED: ${v.dir} was changed after the run`);
      return intact ? 0 : EXIT.notConformant;
    }

    const checkedWith = keys.kind === 'url' ? `the key set at ${keys.url.href}` : keys.path;
    if (s.signature.state === 'absent') {
      io.out(`signature: ${NOT_SIGNED}`);
      io.out(`NOT SIGNED: ${v.dir} is a local run; --key asks for a signed report`);
      return EXIT.notConformant;
    }
    if (s.signature.state === 'unknown-signer') {
      io.out(`signature: unknown signer: ${s.signature.reason}`);
      io.out(
        `UNKNOWN SIGNER: ${v.dir} was not signed by ${checkedWith}${s.signature.kid ? ` (signature.jws names key ${s.signature.kid})` : ''}`,
      );
      return EXIT.notConformant;
    }
    if (s.signature.state === 'malformed') {
      io.out(`signature: ALTERED: ${s.signature.reason}`);
      io.out(`ALTERED: ${v.dir}: signature.jws is not a signed report statement`);
      return EXIT.notConformant;
    }
    const st = s.signature.statement;
    io.out(
      `signature: verified: signed by ${st.signer} at ${st.signedAt} (key ${String(s.signature.header.kid ?? '(none)')}, ${signing.SIGNING_ALG}; checked with ${checkedWith})`,
    );
    io.out(`signed run: ${st.runId}, ${st.verdict}, ${st.target}, started ${st.startedAt}`);
    for (const m of s.mismatches) io.out(`signature: ALTERED: ${m}`);

    let certificateBad = false;
    let statusUnknown = false;
    // The signed statement names the certificate's expiry: past it, the certificate is not valid,
    // whether or not its service can be asked.
    const expiredBySignature =
      st.certificateExpiresAt !== undefined && Date.parse(st.certificateExpiresAt) <= Date.now();
    if (st.certificate !== undefined) {
      if (st.certificateExpiresAt !== undefined)
        io.out(
          `certificate ${st.certificate}: ${expiredBySignature ? 'EXPIRED' : 'expires'} at ${st.certificateExpiresAt} (signed statement)`,
        );
      certificateBad = expiredBySignature;
      if (keys.kind === 'url') {
        const url = signing.certificateStatusUrl(keys.url, st.certificate);
        const status = await signing.fetchCertificateStatus(url);
        if ('status' in status) {
          certificateBad ||= status.status === 'revoked' || status.status === 'expired';
          const by = status.supersededBy ? ` by ${status.supersededBy}` : '';
          const said =
            status.status === 'superseded'
              ? `SUPERSEDED${by} (${url.href}): a later certificate of the same product version and scope ` +
                'took its place; this one still states what this run showed'
              : `${status.status.toUpperCase()} (${url.href})`;
          io.out(`certificate ${st.certificate}: ${said}`);
        } else {
          statusUnknown = true;
          io.out(`certificate ${st.certificate}: status unknown: ${status.problem} (${url.href})`);
        }
      } else
        io.out(`certificate ${st.certificate}: status not checked (give the service's JWKS URL as --key to read it)`);
    }
    const intact = v.intact && s.mismatches.length === 0;
    if (!intact) {
      io.out(`ALTERED: ${v.dir} was changed after ${st.signer} signed it`);
      return EXIT.notConformant;
    }
    if (certificateBad) {
      io.out(
        `CERTIFICATE NOT VALID: ${v.dir} is as ${st.signer} signed it, but certificate ${st.certificate} is no longer valid`,
      );
      return EXIT.notConformant;
    }
    if (statusUnknown) {
      io.out(
        `STATUS UNKNOWN: ${v.dir} is as ${st.signer} signed it, but whether certificate ${st.certificate} is still valid (not revoked) could not be read; try again`,
      );
      return EXIT.inconclusive;
    }
    io.out(`SIGNED AND INTACT: ${v.dir} is as ${st.signer} signed it`);
    return 0;
  },
};
