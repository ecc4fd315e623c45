/** report.html section: The verdict block: verdict, why, the run facts, attestation and integrity. */
import { reasonsLabel, shareLabel } from '../../../core/coverage.ts';
import type { RunResults } from '../../../core/results.ts';
import type { IntegrityState } from '../../../core/integrity.ts';
import { statedSigner } from '../../../core/signing.ts';
import { esc } from '../escape.ts';
import { formatDuration, VERDICT_EXPLANATION, VERDICT_LABEL } from '../format.ts';
import type { ReportContext } from '../context.ts';

const ATTESTATION_FIELDS: readonly [keyof RunResults['attestation'], string][] = [
  ['organisation', 'Organisation'],
  ['product', 'Product'],
  ['environment', 'Environment'],
  ['person', 'Run by'],
];

function integrityText(state: IntegrityState): string {
  if (state.state === 'intact') return `SHA-256 ${state.digest} (matches the content of results.json)`;
  if (state.state === 'altered')
    return `ALTERED: results.json states SHA-256 ${state.stored} but its content has ${state.actual}`;
  return `NOT SEALED: results.json carries no digest (content SHA-256 ${state.actual})`;
}

export function overviewSection(ctx: ReportContext): string {
  const r = ctx.results;
  const duration = Date.parse(r.finishedAt) - Date.parse(r.startedAt);
  const client = r.party === 'client';
  const facts: [string, string][] = [
    [client ? 'Client judged' : 'Target', r.target],
    ['Suite', `${r.suite.name} ${r.suite.version}`],
    ...(client
      ? []
      : ([
          ['Config digest', r.configDigest],
          ['Seed', String(r.seed)],
          ['Runs per property', String(r.runs)],
        ] as [string, string][])),
    ['Started', r.startedAt],
    ['Finished', r.finishedAt],
    ['Duration', formatDuration(duration)],
    ['Destructive operations', r.allowDestructive ? 'allowed' : 'not allowed (omitted)'],
    [
      'Evidence',
      r.evidence === 'full' ? 'full: personal data is NOT masked' : 'masked: secrets and personal data are masked',
    ],
  ];
  if (r.only !== undefined) facts.push(['Only', r.only]);
  if (r.load !== undefined)
    facts.push([
      'Load refusals',
      `${r.load.retries + r.load.gaveUp} answers HTTP 429 or 503 with Retry-After: ${r.load.retries} waited out (${Math.round(r.load.waitedMs / 1000)} s in all) and sent again, ${r.load.gaveUp} left unjudged`,
    ]);
  const dl = facts
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd data-fact="${esc(k.toLowerCase().replace(/\s+/g, '-'))}">${esc(v)}</dd>`)
    .join('\n');
  const stated = ATTESTATION_FIELDS.filter(([k]) => (r.attestation?.[k] ?? '') !== '');
  const attestation = ATTESTATION_FIELDS.map(
    ([k, label]) =>
      `<dt>${esc(label)}</dt><dd data-attestation="${esc(k)}">${r.attestation?.[k] ? esc(r.attestation[k]) : '<span class="muted">not stated</span>'}</dd>`,
  ).join('\n');
  const attestationNote =
    stated.length < ATTESTATION_FIELDS.length
      ? '<p class="note">The config\'s <code>attestation</code> does not state every field; a certification report should.</p>'
      : '';
  const integrityClass = ctx.integrity.state === 'intact' ? 'integrity-ok' : 'integrity-bad';
  const banner =
    r.evidence === 'full'
      ? '<p id="evidence-banner" class="banner banner-danger" role="alert"><strong>Full evidence.</strong> This report shows personal data of patients and members unmasked (<code>--evidence full</code>). It is for a private run only: do not share it.</p>'
      : '';
  return [
    '<header id="overview">',
    '<a class="skip-link" href="#findings">Skip to failures, warnings and errors</a>',
    `<p class="eyebrow">${client ? "Client conformance report (the client's requirement rows)" : 'Conformance report'} · ${esc(r.suite.name)} ${esc(r.suite.version)}</p>`,
    banner,
    `<h1 id="verdict" class="verdict verdict-${esc(r.verdict)}" data-verdict="${esc(r.verdict)}">${esc(VERDICT_LABEL[r.verdict] ?? r.verdict)}</h1>`,
    `<p class="verdict-explanation">${esc(VERDICT_EXPLANATION[r.verdict] ?? '')}</p>`,
    r.verdictReason
      ? `<p class="verdict-reason" id="verdict-reason"><strong>Why:</strong> ${esc(r.verdictReason)}</p>`
      : '',
    r.coverage
      ? `<p class="must-coverage" id="must-coverage">MUST requirements judged: <strong>${esc(shareLabel(r.coverage.overall))}</strong> of the testable MUST requirements in scope (minimum ${Math.round(100 * r.coverage.minimum)}%)` +
        `${Object.keys(r.coverage.overall.notJudged).length ? `; not judged: ${esc(reasonsLabel(r.coverage.overall.notJudged))}` : ''}` +
        `${Object.keys(r.coverage.overall.leftOut).length ? `; left out by choice: ${esc(reasonsLabel(r.coverage.overall.leftOut))}` : ''}.</p>`
      : '',
    baselineParagraph(r),
    '<div class="header-grid">',
    `<div><h2 class="header-title">Run</h2><dl class="facts run-facts">\n${dl}\n</dl></div>`,
    `<div><h2 class="header-title">Attestation</h2><dl class="facts attestation">\n${attestation}\n</dl>${attestationNote}</div>`,
    '</div>',
    `<p id="integrity" class="integrity ${integrityClass}" data-integrity="${esc(ctx.integrity.state)}"><strong>Integrity:</strong> ${esc(integrityText(ctx.integrity))}. ` +
      'Check the folder with <code>npx conformance verify-report DIR</code>. The digest shows the files were not altered after the run; it is not a signature.</p>',
    signerParagraph(r),
    '</header>',
  ].join('\n');
}

/**
 * The signer the results state (set before they were sealed, by a certification service). The
 * signature itself (signature.jws beside the page) is made after the page is written, so the page
 * names the signer and says how to check it; it cannot show that the signature holds.
 */
function signerParagraph(r: RunResults): string {
  const signer = statedSigner(r);
  if (signer === undefined)
    return '<p id="signer" class="signer" data-signer=""><strong>Signer:</strong> none stated (a local run). A signed folder carries <code>signature.jws</code>; check it with <code>npx conformance verify-report DIR --key FILE|URL</code>.</p>';
  const key = signer.jwks ?? 'FILE|URL';
  return (
    `<p id="signer" class="signer" data-signer="${esc(signer.name)}" data-kid="${esc(signer.kid)}"><strong>Signer:</strong> ${esc(signer.name)} (key <code>${esc(signer.kid)}</code>) signs this folder in <code>signature.jws</code>, made after this page. ` +
    `Check the signature with <code>npx conformance verify-report DIR --key ${esc(key)}</code>; this page alone does not prove it.</p>`
  );
}

/** The baseline the run was compared with (`--baseline`), and what it changed. */
function baselineParagraph(r: RunResults): string {
  const b = r.baseline;
  if (b === undefined) return '';
  const fixed = b.fixed.length
    ? `<ul class="baseline-fixed">${b.fixed.map((f) => `<li>fixed: <code>${esc(f.check)}</code> ${esc(f.level)} on ${esc(f.operations.join(', '))}: ${esc(f.cause)}</li>`).join('')}</ul>`
    : '';
  return (
    `<p id="baseline" class="baseline"><strong>Baseline applied:</strong> <code>${esc(b.source)}</code> (run started ${esc(b.startedAt)}, ${esc(b.verdict)}${b.digest ? `, SHA-256 ${esc(b.digest.slice(0, 16))}…` : ''}): ` +
    `${b.new.length} new, ${b.still.length} still failing, ${b.fixed.length} fixed${b.notCompared?.length ? `, ${b.notCompared.length} not compared (on operations this run did not judge)` : ''}. ` +
    `${b.failOn === 'new' ? "The exit code counts only new MUST findings (--fail-on new); the verdict above is the whole run's." : 'The exit code follows the verdict.'}</p>${fixed}`
  );
}
