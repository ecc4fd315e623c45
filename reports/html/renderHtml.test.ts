import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunResults } from '../../core/results.ts';
import { capUtf8, escapeHtml, prettyBody } from './escape.ts';
import { formatDuration } from './format.ts';
import { CONTENT_SECURITY_POLICY, DEFAULT_SECTIONS, renderHtml } from './renderHtml.ts';
import { FIXTURE_NAMES, loadFixture } from '../../core/testSupport/resultsFixtures.ts';
import { elementById } from '../testSupport/elementById.ts';

const count = (html: string, pattern: RegExp): number => (html.match(pattern) ?? []).length;

describe('escapeHtml', () => {
  it('escapes the five special characters exactly', () => {
    expect(escapeHtml(`</script><script>alert("x")</script> & 'y'`)).toBe(
      '&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;',
    );
  });

  it('does not escape twice and keeps non-ASCII text', () => {
    expect(escapeHtml('&amp; Zoë 日本語')).toBe('&amp;amp; Zoë 日本語');
  });

  it('replaces control characters and lone surrogates', () => {
    expect(escapeHtml('a\u0000b\u001Bc\uD800d\u{1F600}\te')).toBe('a\uFFFDb\uFFFDc\uFFFDd\u{1F600}\te');
  });
});

describe('helpers', () => {
  it('cuts at a UTF-8 byte cap without splitting a character', () => {
    expect(capUtf8('aé日', 3)).toEqual({ text: 'aé', bytes: 6, capped: true });
    expect(capUtf8('aé日', 4)).toEqual({ text: 'aé', bytes: 6, capped: true });
    expect(capUtf8('aé日', 6)).toEqual({ text: 'aé日', bytes: 6, capped: false });
  });

  it('pretty-prints JSON bodies only', () => {
    expect(prettyBody('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyBody('{not json')).toBe('{not json');
    expect(prettyBody('1', 'text/plain')).toBe('1');
  });

  it('formats durations', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(83_400)).toBe('1 min 23 s');
    expect(formatDuration(Number.NaN)).toBe('unknown');
  });
});

describe('renderHtml', () => {
  const failing = renderHtml(loadFixture('failing'));

  it.each([
    ['conformant', 'Conformant'],
    ['failing', 'Not conformant'],
    ['inconclusive', 'Inconclusive'],
  ] as const)('shows the verdict of the %s fixture in large type', (name, label) => {
    const run = loadFixture(name);
    const verdict = elementById(renderHtml(run), 'verdict');
    expect(verdict).toBe(
      `<h1 id="verdict" class="verdict verdict-${run.verdict}" data-verdict="${run.verdict}">${label}</h1>`,
    );
  });

  it('shows the run facts', () => {
    const overview = elementById(failing, 'overview');
    for (const fact of [
      'https://staging.example.test/api',
      'api-conformance-suite 0.1.0',
      '1234567',
      '<dd data-fact="runs-per-property">25</dd>',
      '2025-01-15T10:00:00.000Z',
      '2025-01-15T10:01:23.400Z',
      '1 min 23 s',
      'sha256:4f1c2a9be07d3e55',
    ]) {
      expect(overview).toContain(fact);
    }
  });

  it('counts results by status and by level', () => {
    const byStatus = elementById(failing, 'counts-by-status');
    const cells = Object.fromEntries(
      [...byStatus.matchAll(/data-count="(\w+)">(\d+)</g)].map((m) => [m[1], Number(m[2])]),
    );
    expect(cells).toEqual({ pass: 4, fail: 2, warn: 1, skip: 1, omit: 1, error: 1, total: 10 });
    const must = /<tr data-level="MUST">(.*?)<\/tr>/.exec(elementById(failing, 'counts-by-level'))?.[1] ?? '';
    expect([...must.matchAll(/<td[^>]*>(\d+)<\/td>/g)].map((m) => Number(m[1]))).toEqual([4, 2, 0, 1, 1, 1, 9]);
  });

  it('lists operations by document and section with counts and verdict', () => {
    const table = elementById(failing, 'operations-table');
    const rows = [
      ...table.matchAll(/<tr class="operation-row" data-operation="([^"]+)" data-verdict="([^"]+)">(.*?)<\/tr>/g),
    ];
    expect(rows.map((r) => [r[1], r[2]])).toEqual([
      ['find-member-v2', 'not-conformant'],
      ['ack-remittance', 'inconclusive'],
      ['search-hospital-claims', 'conformant'],
      ['search-bills', 'not-conformant'],
      ['get-bill', 'inconclusive'],
    ]);
    const bills = rows[3]?.[3] ?? '';
    expect(bills).toContain('<td>D1</td><td>4.11</td><td>Search Bills of an insurer</td>');
    expect([...bills.matchAll(/<td class="num[^"]*">(\d+)<\/td>/g)].map((m) => Number(m[1]))).toEqual([
      0, 1, 1, 0, 0, 1,
    ]);
  });

  it('opens with the findings by cause, each expandable to links to its results (issue 24)', () => {
    const run = loadFixture('failing');
    const causes = elementById(failing, 'causes');
    const items = [...causes.matchAll(/<li class="cause status-(\w+)" id="cause-([0-9a-f]{12})" data-level="(\w+)"/g)];
    expect(items.length).toBeGreaterThan(0);
    // MUST failures first.
    expect(items[0]?.[1]).toBe('fail');
    expect(items[0]?.[3]).toBe('MUST');
    // Every failing, erring or warning result is linked from exactly one cause.
    const linked = [...causes.matchAll(/<a href="#result-(\d+)">/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
    const expected = run.results.flatMap((r, i) => (['fail', 'warn', 'error'].includes(r.status) ? [i] : []));
    expect(linked).toEqual(expected);
    expect(causes).toContain('<strong>What to change:</strong> Change ');
    // A result repeated word for word on the same operation is listed once, with how many times.
    const repeated = { ...run, results: [...run.results, ...run.results.filter((r) => r.status === 'fail')] };
    const page = elementById(renderHtml(repeated), 'causes');
    expect(page).toMatch(/<span class="times">×2<\/span>/);
    expect(page).toMatch(/results of this cause, \d+ distinct:/);
    // The findings come right after the verdict.
    expect(failing.indexOf('<section id="causes">')).toBeLessThan(failing.indexOf('<section id="summary">'));
  });

  it('states what load refusals cost the run (issue 22: retries are not a failure of the server)', () => {
    const run = { ...loadFixture('conformant'), load: { retries: 12, waitedMs: 15_400, gaveUp: 1 } };
    const page = renderHtml(run);
    expect(page).toContain(
      '13 answers HTTP 429 or 503 with Retry-After: 12 waited out (15 s in all) and sent again, 1 left unjudged',
    );
    expect(renderHtml(loadFixture('conformant'))).not.toContain('Load refusals');
  });

  it('lists every fail, warn and error result with its message and requirements', () => {
    const run = loadFixture('failing');
    const findings = run.results
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => ['fail', 'warn', 'error'].includes(r.status));
    expect(findings).toHaveLength(4);
    expect(count(failing, /<article class="finding /g)).toBe(4);
    for (const { r, i } of findings) {
      const article = elementById(failing, `result-${i}`);
      expect(article).toContain(
        `data-status="${r.status}" data-level="${r.level}" data-document="D1" data-operation="${r.operation}"`,
      );
      expect(article).toContain(`<dd class="fact-message">${escapeHtml(r.message)}</dd>`);
      expect(article).toContain(`<dd class="fact-requirements">${escapeHtml(r.requirements.join(', '))}</dd>`);
      expect(article).toContain(`<code class="check-id">${r.check}</code>`);
      expect(article).toContain('<details class="evidence">');
    }
    // Worst first: fails, then the error, then the warning.
    expect([...failing.matchAll(/<article class="finding status-(\w+)"/g)].map((m) => m[1])).toEqual([
      'fail',
      'fail',
      'error',
      'warn',
    ]);
  });

  it('shows request, response, timing, replay and curl in the evidence', () => {
    const article = elementById(failing, 'result-2');
    expect(article).toContain('<dd class="fact-replay-seed">1234567</dd>');
    expect(article).toContain('<dd class="fact-replay-path">3:1:0</dd>');
    expect(article).toContain('&quot;lastName&quot;: &quot;O&#39;Brien&quot;');
    expect(article).toContain('<dt>Duration</dt><dd>85 ms</dd><dt>Size</dt><dd>109 bytes</dd>');
    expect(article).toContain(
      '<p class="request-line"><code>POST https://staging.example.test/api/member/v2/find</code></p>',
    );
    expect(article).toContain('insurerIdentifier=ppp&amp;lastName=O&#39;Brien&amp;dateOfBirth=1970-01-01');
    expect(article).toContain('<p class="status-line"><code>HTTP 200</code></p>');
    // JSON response pretty-printed.
    expect(article).toContain('{\n  &quot;resourceType&quot;: &quot;Bundle&quot;,\n  &quot;total&quot;: 2,');
    expect(article).toContain('<pre class="curl"><code>curl --globoff \\\n  -X POST');
    expect(article).toContain('-H &quot;Authorization: Bearer $CONFORMANCE_TOKEN&quot;');
    expect(elementById(failing, 'result-5')).toContain(
      '<p class="no-response">No response: connect ECONNREFUSED 127.0.0.1:9</p>',
    );
  });

  it('renders a hostile response body as text', () => {
    expect(failing).not.toMatch(/<script>alert/i);
    expect(failing).not.toMatch(/<img/i);
    expect(count(failing, /<script/gi)).toBe(1);
    expect(count(failing, /<\/script>/gi)).toBe(1);
    expect(failing).toContain(
      '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=&quot;https://evil.example/x.png&quot;&gt;',
    );
    expect(failing).toContain('x-note: &quot;&gt;&lt;script&gt;alert(&#39;hdr&#39;)&lt;/script&gt;');
  });

  it('escapes hostile values in attributes and ids too', () => {
    const run = loadFixture('failing');
    const r = run.results[2];
    if (!r) throw new Error('fixture changed');
    r.operation = '"><script>alert(2)</script>';
    r.level = 'MUST';
    const html = renderHtml(run);
    expect(html).not.toContain('<script>alert(2)');
    expect(html).toContain('data-operation="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
  });

  it('keeps non-ASCII text and never shows a leaked credential', () => {
    expect(failing).toContain('Zoë Ångström 日本語');
    expect(failing).not.toContain('eyJleaked');
    expect(failing).not.toContain('leakedquerytoken');
    expect(failing).toContain('access_token=***');
  });

  it.each(FIXTURE_NAMES)('loads nothing from the network (%s)', (name) => {
    const html = renderHtml(loadFixture(name));
    expect(html).not.toMatch(/\b(?:src|href|action|srcset|poster|data)\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:)?\/\//i);
    // Real start tags only: hostile markup in evidence is escaped text (`&lt;img src=...`), not a tag.
    const tags = html.match(/<[a-zA-Z][^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(50);
    for (const tag of tags) {
      expect(tag).not.toMatch(/\s(?:src|srcset|action|poster|background)\s*=/i);
      const href = /\shref\s*=\s*"([^"]*)"/i.exec(tag);
      if (href) expect(href[1]).toMatch(/^#[\w-]+$/);
    }
    expect(html).not.toMatch(/@import|url\(|<link|<iframe|<object|<embed/i);
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
  });

  it('pins its own style and script in a Content-Security-Policy that allows nothing else', () => {
    const sha = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
    const script = /<script>([\s\S]*?)<\/script>/.exec(failing)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(failing)?.[1] ?? '';
    expect(CONTENT_SECURITY_POLICY).toBe(
      `default-src 'none'; style-src ${sha(style)}; script-src ${sha(script)}; base-uri 'none'; form-action 'none'`,
    );
    expect(failing).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">`,
    );
    expect(style).toContain('@media print');
  });

  it('is complete without scripts: only the filter controls start hidden', () => {
    expect([...failing.matchAll(/<(\w+)[^>]*\shidden[\s>]/g)].map((m) => m[0])).toEqual([
      '<section id="filters" class="filters" hidden ',
    ]);
    expect(count(failing, /<tr class="result-row"/g)).toBe(10);
  });

  it('has a collapsed table of all results with data attributes', () => {
    const all = elementById(failing, 'all-results');
    expect(all).toContain('<details id="all-results-details">\n<summary>Show all 10 results</summary>');
    const rows = [
      ...all.matchAll(
        /<tr class="result-row" data-status="(\w+)" data-level="(\w+)" data-document="D1" data-operation="([^"]+)"/g,
      ),
    ];
    const statuses = rows.map((m) => m[1]).sort();
    expect(statuses).toEqual(['error', 'fail', 'fail', 'omit', 'pass', 'pass', 'pass', 'pass', 'skip', 'warn']);
    expect(rows.filter((m) => m[2] === 'SHOULD')).toHaveLength(1);
    expect(all).toContain('<a href="#result-2">evidence</a>');
  });

  it('caps a large response body at 20 KB with a note', () => {
    const run = loadFixture('failing');
    const x = run.exchanges[1];
    if (!x?.response) throw new Error('fixture changed');
    x.response.body = `${'a'.repeat(30 * 1024)}END-OF-BODY`;
    x.response.size = x.response.body.length;
    const html = renderHtml(run);
    expect(html).toContain(
      'Showing the first 20 KB of 30731 bytes (30.0 KB); results.json holds it as recorded (up to http.maxEvidenceBytes, 64 KiB by default).',
    );
    expect(html).not.toContain('END-OF-BODY');
    expect(html).toContain(`<code>${'a'.repeat(20 * 1024)}</code>`);
  });

  it('says so when the harness truncated a body', () => {
    const run = loadFixture('failing');
    const x = run.exchanges[1];
    if (!x?.response) throw new Error('fixture changed');
    x.response.truncated = true;
    expect(renderHtml(run)).toContain('The suite stopped reading at its size cap');
  });

  it('shows no findings for a conformant run and the error of an inconclusive one', () => {
    expect(elementById(renderHtml(loadFixture('conformant')), 'findings')).toContain('<p class="muted">None.</p>');
    const inconclusive = renderHtml(loadFixture('inconclusive'));
    expect(elementById(inconclusive, 'result-0')).toContain('No response: time-out after 30000 ms');
    expect(elementById(inconclusive, 'overview')).toContain(
      '<dt>Only</dt><dd data-fact="only">search-authorisation</dd>',
    );
  });

  it('accepts extra sections', () => {
    const html = renderHtml(loadFixture('conformant'), [
      ...DEFAULT_SECTIONS,
      {
        id: 'decisions',
        title: 'Decisions',
        render: (ctx) => `<section id="decisions">${ctx.results.decisions.length}</section>`,
      },
    ]);
    expect(html).toContain('<li><a href="#decisions">Decisions</a></li>');
    expect(html).toContain('<section id="decisions">0</section>');
  });
});

describe('certification parts', () => {
  it('shows the attestation from the config, escaped, and says when fields are missing', () => {
    const overview = elementById(renderHtml(loadFixture('failing')), 'overview');
    expect(overview).toContain('<dd data-attestation="organisation">Acme Clinics &lt;Partner &amp; Co&gt;</dd>');
    expect(overview).toContain('<dd data-attestation="product">Acme Connect 1.0</dd>');
    expect(overview).toContain('<dd data-attestation="environment">production</dd>');
    expect(overview).toContain('<dd data-attestation="person">B. Engineer</dd>');
    expect(overview).not.toContain('does not state every field');
    const bare = elementById(renderHtml(loadFixture('inconclusive')), 'overview');
    expect(bare).toContain('<dd data-attestation="organisation"><span class="muted">not stated</span></dd>');
    expect(bare).toContain('does not state every field');
  });

  it('says in the header when personal data is not masked', () => {
    const masked = renderHtml(loadFixture('failing'));
    expect(masked).not.toContain('id="evidence-banner"');
    expect(elementById(masked, 'overview')).toContain(
      '<dd data-fact="evidence">masked: secrets and personal data are masked</dd>',
    );
    const full = renderHtml({ ...loadFixture('failing'), evidence: 'full' });
    expect(elementById(full, 'evidence-banner')).toContain('personal data of patients and members unmasked');
    expect(elementById(full, 'overview')).toContain('<dd data-fact="evidence">full: personal data is NOT masked</dd>');
  });

  it('shows the integrity digest and whether it matches the content', () => {
    const run = loadFixture('failing');
    const intact = elementById(renderHtml(run), 'integrity');
    expect(intact).toContain('data-integrity="intact"');
    expect(intact).toContain(`SHA-256 ${run.integrity!.digest} (matches the content of results.json)`);
    const altered = elementById(renderHtml({ ...run, target: 'https://elsewhere.test' }), 'integrity');
    expect(altered).toContain('data-integrity="altered"');
    expect(altered).toContain(`ALTERED: results.json states SHA-256 ${run.integrity!.digest} but its content has `);
    const { integrity: _none, ...unsealed } = run;
    expect(elementById(renderHtml(unsealed), 'integrity')).toContain('data-integrity="missing"');
  });

  it('lists every requirement of the table with its checks, or the reason it has none', () => {
    const run = loadFixture('failing');
    const table = elementById(renderHtml(run), 'traceability-table');
    const rows = [...table.matchAll(/<tr class="trace-row" id="req-([^"]+)" data-status="([^"]+)"/g)];
    expect(rows.map((m) => m[1])).toEqual(run.requirements.map((q) => q.id));
    const status = Object.fromEntries(rows.map((m) => [m[1], m[2]]));
    // D1-4.2-05 is cited by a MUST fail and nothing worse; D1-4.12-01 only by an error.
    expect(status['D1-4.2-05']).toBe('fail');
    const untestable = run.requirements.find(
      (q) => q.notTestedReason !== '' && !run.results.some((r) => r.requirements.includes(q.id)),
    );
    expect(untestable).toBeDefined();
    expect(status[untestable!.id]).toBe('not-tested');
    expect(elementById(table, `req-${untestable!.id}`)).toContain(escapeHtml(untestable!.notTestedReason));
    const row = elementById(table, 'req-D1-4.2-05');
    expect(row).toContain('<code>find-member-v2</code>');
    expect(row).toMatch(
      /<span class="badge status-fail">fail<\/span> <code>[a-z-]+<\/code> on <code>find-member-v2<\/code>/,
    );
  });

  it('shows requirement coverage per run, document and operation', () => {
    const html = renderHtml(loadFixture('failing'));
    expect(elementById(html, 'coverage-summary')).toMatch(/data-coverage="run">\d+% \(\d+\/\d+\)</);
    expect(elementById(html, 'documents-table')).toMatch(/data-coverage="D1">\d+% \(\d+\/\d+\)</);
    expect(elementById(html, 'operations-table')).toMatch(/data-coverage="find-member-v2">\d+% \(\d+\/\d+\)</);
  });

  it('lists the applied decisions with what the documents say and what the suite does', () => {
    const run = loadFixture('failing');
    const table = elementById(renderHtml(run), 'decisions-table');
    expect(run.appliedDecisions.map((d) => d.id)).toEqual(['DEC-D1-16']);
    expect(table).toContain('<tr id="DEC-D1-16"><th scope="row"><code>DEC-D1-16</code></th>');
    expect(table).toContain(escapeHtml(run.appliedDecisions[0]!.suiteDoes));
    expect(elementById(renderHtml(loadFixture('conformant')), 'decisions')).toContain('No decision on an open point');
  });

  it('gives a replay command for a property case', () => {
    const article = elementById(renderHtml(loadFixture('failing')), 'result-2');
    expect(article).toContain(
      '<pre class="replay"><code>npx conformance run --target &#39;https://staging.example.test/api&#39; --only find-member-v2 --seed 1234567 --path &#39;3:1:0&#39; --runs 25</code></pre>',
    );
  });

  it('offers filters by status, level, document and operation, a search box and keyboard hints', () => {
    const filters = elementById(renderHtml(loadFixture('failing')), 'filters');
    for (const s of ['pass', 'fail', 'warn', 'skip', 'omit', 'error', 'not-tested', 'not-run']) {
      expect(filters).toContain(`<input type="checkbox" name="status" value="${s}" checked>`);
    }
    expect(filters).toContain(
      '<select id="filter-level" data-filter="level"><option value="">all levels</option><option value="MUST">MUST</option>',
    );
    expect(filters).toContain(
      '<select id="filter-document" data-filter="document"><option value="">all documents</option><option value="D1">D1</option></select>',
    );
    expect(filters).toContain('<option value="search-bills">search-bills</option>');
    expect(filters).toContain('aria-keyshortcuts="/"');
  });
});

describe('fixture sanity', () => {
  it.each(FIXTURE_NAMES)('%s renders', (name) => {
    const run: RunResults = loadFixture(name);
    expect(renderHtml(run).length).toBeGreaterThan(1000);
  });
});

describe('MUST coverage in the report', () => {
  it("shows the verdict's reason, the overall share with reasons, and the share per operation", () => {
    const base = loadFixture('conformant');
    const op = base.operations[0]!.id;
    const results: RunResults = {
      ...base,
      verdict: 'inconclusive',
      verdictReason:
        'only 50% (2/4) of the testable MUST requirements in scope were judged, below the minimum of 90% (--min-coverage); not judged: 2 fixture not configured',
      coverage: {
        minimum: 0.9,
        overall: {
          inScope: 4,
          judged: 2,
          notJudged: { 'fixture not configured': 2 },
          leftOut: { 'needs --allow-destructive': 3 },
        },
        operations: { [op]: { inScope: 4, judged: 2, notJudged: { 'fixture not configured': 2 }, leftOut: {} } },
      },
    };
    const html = renderHtml(results);
    expect(elementById(html, 'verdict-reason')).toContain('below the minimum of 90%');
    const must = elementById(html, 'must-coverage');
    expect(must).toContain('50% (2/4)');
    expect(must).toContain('not judged: 2 fixture not configured');
    expect(must).toContain('left out by choice: 3 needs --allow-destructive');
    expect(html).toMatch(
      new RegExp(`data-must-coverage="${op}">50% \\(2/4\\)<br><small>not judged: 2 fixture not configured</small>`),
    );
  });
});
