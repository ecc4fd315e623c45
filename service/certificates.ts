/**
 * A run the service performs is signed, and a conformant run that judged enough earns a
 * certificate (issue 25, items 6 and 7; its scope and superseding, issue 32).
 *
 * Signing: the results state their signer (`signedBy`: the service's address, its key id and its
 * JWKS URL) before they are sealed, so report.html names it; the folder is then signed
 * (reports/verifySignature.ts signReportDir: signature.jws and signature.json), naming the run's
 * id and its certificate when it earned one. Every file a verifier needs is kept with the run.
 *
 * A certificate: the run is conformant, judged at least settings.certificate.minimumCoverage of
 * the testable MUST requirements in scope, and certifies at least one operation. It states the
 * organisation, the product's name and version as certified, the suite version, the scope (kind,
 * the certified operations and their documents, and the operations of the run's selection left
 * out, each with why), when it was issued and expires, the run and its results digest; it is
 * itself a JWS signed with the service's key. An operation is certified only when its own verdict
 * is conformant, it judged a testable MUST row, and none of its rows was left out because the
 * product did not allow changes: an operation whose steps were omitted is never certified.
 *
 * One certificate per product version and scope: a new one supersedes every earlier still-valid
 * certificate of the same product, version and scope (in the transaction that writes it), which
 * still states what its run showed; a certificate of another scope stands beside it. A failing
 * run changes no certificate; the operator revokes one that must no longer stand.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompactSign } from 'jose';
import type { Kysely } from 'kysely';
import { DESTRUCTIVE_STEP } from '../core/decidedOutcomes.ts';
import { sealed } from '../core/integrity.ts';
import type { RunResults } from '../core/results.ts';
import { type CertificateStatus, SIGNATURE_JSON, SIGNATURE_JWS, SIGNING_ALG } from '../core/signing.ts';
import { signReportDir } from '../reports/verifySignature.ts';
import { RESULTS_JSON, writeReports } from '../reports/writeReports.ts';
import { type CertificateSettings, iso, type ServiceContext, serviceUrlOf } from './context.ts';
import type { CertificatesTable, Database } from './db/schema.ts';
import { JWKS_PATH } from './signingKey.ts';

/** The `typ` header of a certificate's JWS. */
export const CERTIFICATE_TYP = 'conformance-certificate+jws';
/** The signer's name when the service knows no address of its own (a worker without --public-url). */
export const UNNAMED_SIGNER = 'conformance certification service';
/** Every file of a signed report folder, as kept with the run (what verify-report reads). */
export const SIGNED_FILES = Object.freeze([
  RESULTS_JSON,
  'report.html',
  'junit.xml',
  'requirements-coverage.csv',
  SIGNATURE_JWS,
  SIGNATURE_JSON,
]);

/** What a certificate states: the signed payload of its JWS. */
export interface CertificateStatement {
  statement: 'conformance-certificate/1';
  id: string;
  issuer: string;
  organisation: { id: string; name: string };
  product: { id: string; name: string; version: string };
  suite: { name: string; version: string };
  scope: CertificateScope;
  issuedAt: string;
  expiresAt: string;
  runId: string;
  resultsDigest: { algorithm: 'sha256'; digest: string };
  /** Where its status is answered (core/signing.ts certificateStatusUrl), when the service knows its address. */
  status?: string;
}

/** Why an operation of a run's selection is not certified. */
export const LEFT_OUT_REASONS = Object.freeze({
  /** Some of its rows are judged only by steps that change data, and the product did not allow changes. */
  noChanges: 'omitted: the product did not allow changes',
  /** Left out by choice: the config omits it, its features are not available, its scenario not selected. */
  notInScope: 'not in scope',
  /** Nothing of it judged (data wanting, no result), or too little for a verdict of its own. */
  notJudged: 'not judged',
} as const);
export type LeftOutReason = (typeof LEFT_OUT_REASONS)[keyof typeof LEFT_OUT_REASONS];

export interface LeftOutOperation {
  operation: string;
  reason: LeftOutReason;
}

export interface CertificateScope {
  kind: 'server' | 'client';
  /** The documents of the certified operations. */
  documents: string[];
  /** The certified operations. */
  operations: string[];
  /** The operations of the run's selection that are not certified, each with why. */
  leftOut: LeftOutOperation[];
}

/**
 * What a run's sealed results certify: each operation of its selection is certified when its own
 * verdict is conformant, it judged at least one testable MUST row, and no row of it was left out
 * because steps that change data were not allowed (results.coverage.operations); the others are
 * left out with their reason.
 */
export function certifiedOperations(
  results: Pick<RunResults, 'operations' | 'coverage'>,
): Omit<CertificateScope, 'kind'> {
  const certified: RunResults['operations'] = [];
  const leftOut: LeftOutOperation[] = [];
  for (const o of results.operations) {
    const c = results.coverage?.operations[o.id];
    const [judged, inScope, chosen] = [c?.judged ?? 0, c?.inScope ?? 0, c?.leftOut ?? {}];
    const reason: LeftOutReason | undefined =
      (chosen[DESTRUCTIVE_STEP.coverage.reason] ?? 0) > 0
        ? LEFT_OUT_REASONS.noChanges
        : judged > 0 && o.verdict === 'conformant'
          ? undefined
          : judged === 0 && inScope === 0 && Object.keys(chosen).length > 0
            ? LEFT_OUT_REASONS.notInScope
            : LEFT_OUT_REASONS.notJudged;
    if (reason === undefined) certified.push(o);
    else leftOut.push({ operation: o.id, reason });
  }
  return {
    documents: [...new Set(certified.map((o) => o.document))].sort(),
    operations: certified.map((o) => o.id).sort(),
    leftOut: leftOut.sort((a, b) => a.operation.localeCompare(b.operation)),
  };
}

/** `ack-remittance (omitted: the product did not allow changes), ...`, the first few. */
export function leftOutText(leftOut: readonly LeftOutOperation[], most = 5): string {
  const named = leftOut.slice(0, most).map((l) => `${l.operation} (${l.reason})`);
  return leftOut.length > most ? `${named.join(', ')} and ${leftOut.length - most} more` : named.join(', ');
}

/** A stored scope, as issued (a certificate issued before scopes named what was left out names none). */
export function scopeOf(text: string | null): CertificateScope {
  const value = (text ? JSON.parse(text) : {}) as Partial<CertificateScope>;
  return {
    kind: value.kind === 'client' ? 'client' : 'server',
    documents: value.documents ?? [],
    operations: value.operations ?? [],
    leftOut: value.leftOut ?? [],
  };
}

/** Two certificates are of one scope when of one kind, certifying and leaving out the same operations. */
export function sameScope(a: CertificateScope, b: CertificateScope): boolean {
  const key = (s: CertificateScope) =>
    JSON.stringify([s.kind, [...s.operations].sort(), s.leftOut.map((l) => l.operation).sort()]);
  return key(a) === key(b);
}

/**
 * Marks superseded by `issued` every other still-valid certificate of its product, version and
 * scope (not revoked, not superseded, not expired when it is issued). Called in the transaction
 * that writes `issued` (jobs/claims.ts finishRun); answers the ids superseded.
 */
export async function supersedeEarlier(db: Kysely<Database>, issued: CertificatesTable): Promise<string[]> {
  if (issued.product_version === null) return [];
  const standing = await db
    .selectFrom('certificates')
    .select(['id', 'scope'])
    .where('product_id', '=', issued.product_id)
    .where('product_version', '=', issued.product_version)
    .where('id', '!=', issued.id)
    .where('revoked_at', 'is', null)
    .where('superseded_at', 'is', null)
    .where('expires_at', '>', issued.issued_at)
    .execute();
  const scope = scopeOf(issued.scope);
  const same = standing.filter((c) => sameScope(scopeOf(c.scope), scope)).map((c) => c.id);
  if (same.length > 0)
    await db
      .updateTable('certificates')
      .set({ superseded_by: issued.id, superseded_at: issued.issued_at })
      .where('id', 'in', same)
      .execute();
  return same;
}

/**
 * Whether a finished run earns a certificate, or the one line why not; with its results, also
 * whether it certifies any operation (certifiedOperations).
 */
export function certificateDecision(
  run: { verdict: string | null; coverage_judged: number | null; coverage_in_scope: number | null },
  settings: CertificateSettings,
  results?: Pick<RunResults, 'operations' | 'coverage'>,
): { earned: true } | { earned: false; reason: string } {
  if (run.verdict !== 'conformant')
    return { earned: false, reason: `the run is not conformant (verdict ${run.verdict ?? 'none'})` };
  const [judged, inScope] = [run.coverage_judged ?? 0, run.coverage_in_scope ?? 0];
  if (inScope === 0) return { earned: false, reason: 'the run judged no testable MUST requirement' };
  const percent = (share: number) => `${Math.floor(100 * share * 10) / 10}%`;
  if (judged / inScope < settings.minimumCoverage)
    return {
      earned: false,
      reason: `coverage ${percent(judged / inScope)} (${judged}/${inScope}) is below the minimum of ${percent(settings.minimumCoverage)}`,
    };
  if (results !== undefined) {
    const { operations, leftOut } = certifiedOperations(results);
    if (operations.length === 0)
      return { earned: false, reason: `no operation can be certified: ${leftOutText(leftOut)}` };
  }
  return { earned: true };
}

/** A certificate's status at a moment: revoked first, then superseded, then expired. */
export function certificateStatus(
  row: Pick<CertificatesTable, 'revoked_at' | 'superseded_at' | 'expires_at'>,
  now: Date,
): CertificateStatus {
  if (row.revoked_at !== null) return 'revoked';
  if (row.superseded_at !== null) return 'superseded';
  return row.expires_at <= iso(now) ? 'expired' : 'valid';
}

/** The service's name and key set URL as its signatures state them. */
export function signerOf(ctx: ServiceContext): { name: string; jwks?: string } {
  const url = serviceUrlOf(ctx);
  return url === undefined ? { name: UNNAMED_SIGNER } : { name: url, jwks: url + JWKS_PATH };
}

export interface SignedRun {
  /** The sealed results as the folder now holds them (with their signer). */
  results: RunResults;
  resultsDigest: string;
  signature: string;
  /** Every file of the signed folder, by name. */
  files: Record<string, string>;
  /** The certificate row to insert with the run's outcome, when the run earned one. */
  certificate?: CertificatesTable;
  /** Why the run earned no certificate. */
  noCertificate?: string;
}

/**
 * Signs a finished run's report folder (rewritten first with its signer stated, then sealed) and,
 * when the run earns one, makes its certificate (not yet stored: finishRun writes it with the
 * run's outcome, under the claim). `results` are the run's sealed results as runConformance gave them.
 */
export async function signRun(
  ctx: ServiceContext,
  run: { id: string; organisation_id: string; product_id: string },
  reportDir: string,
  results: RunResults,
  options: {
    /**
     * False: signed, and no certificate whatever the verdict (a pact check states what a
     * consumer's tests expect, not how the client behaves; a client's certificate is its workspace run's).
     */
    certify?: boolean;
  } = {},
): Promise<SignedRun> {
  const signer = signerOf(ctx);
  const key = ctx.signingKey;
  const stated = sealed({
    ...results,
    signedBy: { name: signer.name, kid: key.kid, ...(signer.jwks ? { jwks: signer.jwks } : {}) },
  });
  await writeReports(stated, reportDir);
  const overall = stated.coverage?.overall;
  const decision =
    options.certify === false
      ? ({
          earned: false,
          reason: 'a pact check earns no certificate (a client is certified by its workspace run)',
        } as const)
      : certificateDecision(
          {
            verdict: stated.verdict,
            coverage_judged: overall?.judged ?? null,
            coverage_in_scope: overall?.inScope ?? null,
          },
          ctx.settings.certificate,
          stated,
        );
  const now = ctx.now();
  const certificateId = decision.earned ? randomUUID() : undefined;
  const expires = new Date(now.getTime() + ctx.settings.certificate.validityDays * 86_400_000);
  const { jws } = await signReportDir(reportDir, {
    key,
    signer: signer.name,
    runId: run.id,
    signedAt: iso(now),
    ...(certificateId ? { certificate: certificateId, certificateExpiresAt: iso(expires) } : {}),
  });
  const files = Object.fromEntries(SIGNED_FILES.map((name) => [name, readFileSync(join(reportDir, name), 'utf8')]));
  const digest = stated.integrity?.digest ?? '';
  const signed: SignedRun = { results: stated, resultsDigest: digest, signature: jws, files };
  if (!decision.earned) return { ...signed, noCertificate: decision.reason };
  const product = await ctx.db
    .selectFrom('products')
    .select(['name', 'version', 'kind'])
    .where('id', '=', run.product_id)
    .executeTakeFirstOrThrow();
  const organisation = await ctx.db
    .selectFrom('organisations')
    .select('name')
    .where('id', '=', run.organisation_id)
    .executeTakeFirstOrThrow();
  const scope: CertificateScope = {
    kind: stated.party === 'client' || product.kind === 'client' ? 'client' : 'server',
    ...certifiedOperations(stated),
  };
  const statement: CertificateStatement = {
    statement: 'conformance-certificate/1',
    id: certificateId as string,
    issuer: signer.name,
    organisation: { id: run.organisation_id, name: organisation.name },
    product: { id: run.product_id, name: product.name, version: product.version },
    suite: stated.suite,
    scope,
    issuedAt: iso(now),
    expiresAt: iso(expires),
    runId: run.id,
    resultsDigest: { algorithm: 'sha256', digest },
    ...(serviceUrlOf(ctx) ? { status: `${serviceUrlOf(ctx)}/certificates/${certificateId}.json` } : {}),
  };
  const certificateJws = await new CompactSign(new TextEncoder().encode(JSON.stringify(statement)))
    .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: CERTIFICATE_TYP })
    .sign(key.key);
  return {
    ...signed,
    certificate: {
      id: statement.id,
      organisation_id: run.organisation_id,
      product_id: run.product_id,
      run_id: run.id,
      issued_at: statement.issuedAt,
      expires_at: statement.expiresAt,
      revoked_at: null,
      jws: certificateJws,
      product_name: product.name,
      product_version: product.version,
      suite_version: stated.suite.version,
      scope: JSON.stringify(scope),
      results_digest: digest,
      superseded_by: null,
      superseded_at: null,
    },
  };
}
