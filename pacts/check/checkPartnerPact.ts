/**
 * `conformance pact check PARTNER.json`: a pact written by a partner's own consumer tests, judged
 * three ways into one sealed report with the verdict words, exit codes and integrity of a server
 * run: (a) against the exported OpenAPI document (pacts/check/compareWithOpenApi.ts), (b) against
 * the requirement table as client obligations (pacts/check/judgeInteractions.ts), and (c) by
 * verifying it with Pact's own Verifier against a fresh sandbox with provider states.
 */
import { writeSealedReport } from '../../app/sealedReport.ts';
import type { WorkerResult } from '../../core/events.ts';
import { Redactor } from '../../core/redact.ts';
import type { ExchangeRecord } from '../../core/results.ts';
import { EXIT } from '../../core/results.ts';
import { suiteVersion } from '../../core/suiteVersion.ts';
import type { RunOutcome } from '../../app/runConformance.ts';
import { buildOpenApiDocument } from '../../openapi/buildOpenApi.ts';
import { operations } from '../../spec/operations.ts';
import { resolveOperation, resolveRequest } from '../resolveOperation.ts';
import { compareWithOpenApi, documentedView } from './compareWithOpenApi.ts';
import { comparatorView } from './comparatorView.ts';
import { judgeInteractions } from './judgeInteractions.ts';
import { PactFileError, readPact } from '../readPact.ts';

/** What verifying the pact against a provider gave: one result per interaction, with its exchanges. */
export interface Verification {
  results: WorkerResult[];
  exchanges: ReadonlyMap<string, ExchangeRecord>;
}

export interface PactCheckOptions {
  pactFile: string;
  /** How the report names the pact (default its path): a service names the upload, never its own folders. */
  pactName?: string;
  reportDir: string;
  /** The consumer is one of the operator's own products: reserved operations are its to call. */
  operatorProduct?: boolean;
  /** Part (c): verify the pact against the sandbox (the command always does; unit tests may not). */
  verify?: (pactFile: string) => Promise<Verification>;
}

export async function checkPartnerPact(options: PactCheckOptions): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  let pact: ReturnType<typeof readPact>;
  try {
    pact = readPact(options.pactFile);
  } catch (e) {
    if (e instanceof PactFileError) return { exitCode: EXIT.usage, problem: e.message };
    throw e;
  }
  // Compared as the documents read it: a path's base before the operation's address and a patient
  // version header of another name are the provider's and the client's to choose (noted, not failed).
  const view = await documentedView(pact, resolveRequest);
  const findings = [...(await compareWithOpenApi(comparatorView(buildOpenApiDocument()), view.raw)), ...view.notes];
  const judged = judgeInteractions(pact, findings, {
    operatorProduct: options.operatorProduct === true,
    resolve: resolveOperation,
  });
  // A pact carries whatever its consumer test sent: a real token or a personal value is masked
  // like any exchange (credentials by header name, personal data by structure).
  const redactor = Redactor.forRun({ secrets: [], evidence: 'masked', fixtures: {} });
  const exchanges = new Map<string, ExchangeRecord>(judged.map((j) => [j.exchange.id, redactor.exchange(j.exchange)]));
  const results: WorkerResult[] = judged.flatMap((j) => j.results);
  if (options.verify) {
    const verification = await options.verify(options.pactFile);
    results.push(...verification.results);
    for (const [id, x] of verification.exchanges) exchanges.set(id, x);
  }
  const used = new Set(judged.flatMap((j) => (j.operation ? [j.operation.id] : [])));
  return writeSealedReport(options.reportDir, {
    suite: suiteVersion(),
    target: `pact ${pact.consumer} -> ${pact.provider} (${options.pactName ?? options.pactFile})`,
    configDigest: '',
    attestation: {},
    evidence: 'masked',
    seed: 0,
    runs: 0,
    allowDestructive: false,
    startedAt,
    finishedAt: new Date().toISOString(),
    operations: operations.filter((o) => used.has(o.id)).map((o) => o.id),
    events: [],
    runnerExchanges: exchanges,
    runnerResults: results,
    // The pact, not the documents, sets what a partner's client consumes: the share of the
    // documents' requirements it reaches says nothing of its conformance (shown, not gated).
    minCoverage: 0,
    // A pact check judges a partner's client (its consumer's requests and expectations): its rows,
    // coverage and advice are the client's.
    party: 'client',
  });
}
