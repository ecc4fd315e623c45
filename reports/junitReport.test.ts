import { describe, expect, it } from 'vitest';
import type { RunResults } from '../core/results.ts';
import { exchangeSeconds, renderJunit, stripInvalidXmlChars, xmlAttr, xmlText } from './junitReport.ts';
import { FIXTURE_NAMES, loadFixture } from '../core/testSupport/resultsFixtures.ts';
import { findAll, parseXml, type XmlElement } from './testSupport/xmlWellFormed.ts';

function suites(xml: string): XmlElement[] {
  return findAll(parseXml(xml), 'testsuite');
}

function testcase(xml: string, operation: string, check: string): XmlElement {
  const found = findAll(parseXml(xml), 'testcase').find(
    (c) => c.attributes.classname === operation && c.attributes.name === check,
  );
  if (!found) throw new Error(`no testcase ${operation}/${check}`);
  return found;
}

describe('xml escaping', () => {
  it('escapes attribute values exactly', () => {
    expect(xmlAttr(`a"b'c<d>&e\nf\tg\rh`)).toBe('a&quot;b&apos;c&lt;d&gt;&amp;e&#10;f&#9;g&#13;h');
  });

  it('escapes text exactly', () => {
    expect(xmlText('</failure><x>&amp;')).toBe('&lt;/failure&gt;&lt;x&gt;&amp;amp;');
  });

  it('strips characters XML 1.0 does not allow', () => {
    expect(stripInvalidXmlChars('\u0000a\u0001b\u000Bc\uFFFEd\uD800e\u001Ff\tg\u{1F600}')).toBe('abcdef\tg\u{1F600}');
  });
});

describe('renderJunit', () => {
  it.each(FIXTURE_NAMES)('writes well-formed XML for the %s fixture', (name) => {
    const xml = renderJunit(loadFixture(name));
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(() => parseXml(xml)).not.toThrow();
  });

  it('has one testsuite per operation, in document and section order, with counts', () => {
    const xml = renderJunit(loadFixture('failing'));
    const root = parseXml(xml);
    expect(root.attributes).toMatchObject({
      tests: '9',
      failures: '2',
      errors: '1',
      skipped: '2',
      name: 'api-conformance-suite 0.1.0',
    });
    const counts = suites(xml).map((s) => [
      s.attributes.name,
      s.attributes.tests,
      s.attributes.failures,
      s.attributes.errors,
      s.attributes.skipped,
    ]);
    expect(counts).toEqual([
      ['find-member-v2', '3', '1', '0', '0'],
      ['ack-remittance', '1', '0', '0', '1'],
      ['search-hospital-claims', '1', '0', '0', '0'],
      ['search-bills', '3', '1', '1', '0'],
      ['get-bill', '1', '0', '0', '1'],
    ]);
  });

  it('aggregates the results of one (operation, check) pair and sums exchange time in seconds', () => {
    const run = loadFixture('failing');
    const xml = renderJunit(run);
    const c = testcase(xml, 'search-hospital-claims', 'status-is-documented');
    expect(c.attributes.time).toBe('0.120');
    expect(c.children).toEqual([]);
    // Two results on one exchange count its time once.
    expect(
      exchangeSeconds(
        run,
        run.results.filter((r) => r.exchange === 0),
      ),
    ).toBe(0.12);
    const suite = suites(xml).find((s) => s.attributes.name === 'search-bills');
    expect(suite?.attributes.time).toBe('0.483'); // 240 + 240 + 3 ms: each case sums its own exchanges
  });

  it('turns a MUST fail into <failure> with message, requirements, level and curl', () => {
    const c = testcase(renderJunit(loadFixture('failing')), 'find-member-v2', 'error-code-matches');
    const failure = c.children.find((e) => e.name === 'failure');
    expect(failure?.attributes.message).toBe(
      'Expected HTTP 400 with code MULTIPLE_MATCH_FOUND, received HTTP 200 for lastName "O\'Brien"',
    );
    expect(failure?.attributes.type).toBe('MUST');
    const text = failure?.text ?? '';
    expect(text).toContain('[MUST] fail error-code-matches');
    expect(text).toContain('Requirements: D1-4.2-05, D1-7-01');
    expect(text).toContain('Message: Expected HTTP 400 with code MULTIPLE_MATCH_FOUND');
    expect(text).toContain('Replay: --seed 1234567 --path 3:1:0');
    expect(text).toContain("curl --globoff \\\n  -X POST \\\n  'https://staging.example.test/api/member/v2/find'");
    expect(text).toContain('"Authorization: Bearer $CONFORMANCE_TOKEN"');
    expect(text).toContain("--data-raw 'insurerIdentifier=ppp&lastName=O'\\''Brien&dateOfBirth=1970-01-01'");
  });

  it('escapes hostile text and never prints a leaked credential', () => {
    const xml = renderJunit(loadFixture('failing'));
    expect(xml).not.toContain('<script>');
    expect(xml).toContain('received text/html &lt;script&gt;alert(&quot;msg&quot;)&lt;/script&gt;');
    expect(xml).not.toContain('eyJleaked');
    expect(xml).not.toContain('leakedquerytoken');
    const failure = testcase(xml, 'search-bills', 'response-matches-schema').children.find((e) => e.name === 'failure');
    expect(failure?.text).toContain('“Zoë Ångström” (日本語)');
  });

  it('turns an error into <error> and keeps a warn as a pass in <system-out>', () => {
    const xml = renderJunit(loadFixture('failing'));
    const error = testcase(xml, 'search-bills', 'sort-order-holds').children;
    expect(error.map((e) => e.name)).toEqual(['error']);
    expect(error[0]?.attributes.message).toBe('Could not judge: connect ECONNREFUSED 127.0.0.1:9');
    expect(error[0]?.text).toContain('no response (connect ECONNREFUSED 127.0.0.1:9)');
    const warn = testcase(xml, 'search-bills', 'paging-tags-match-request').children;
    expect(warn.map((e) => e.name)).toEqual(['system-out']);
    expect(warn[0]?.text).toBe('[SHOULD] warn (D1-4.11-06): Expected tag count=5, received count=50');
  });

  it('marks a case whose results are all skip or omit as <skipped> with the reason', () => {
    const xml = renderJunit(loadFixture('failing'));
    expect(testcase(xml, 'get-bill', 'status-is-documented').children[0]).toMatchObject({
      name: 'skipped',
      attributes: { message: 'skip: Fixture billId is not configured' },
    });
    expect(testcase(xml, 'ack-remittance', 'batch-disappears-after-ack').children[0]?.attributes.message).toBe(
      'omit: Destructive operation; run with --allow-destructive',
    );
  });

  it('stays well-formed with control characters, markup and quotes everywhere', () => {
    const run: RunResults = loadFixture('failing');
    const r = run.results[2];
    if (!r) throw new Error('fixture changed');
    r.check = 'a"b<c>&\u0000d';
    r.operation = "op'\u0001<x>";
    r.message = ']]> </failure> \u0007 \uFFFF &amp;';
    const xml = renderJunit(run);
    const c = testcase(xml, "op'<x>", 'a"b<c>&d');
    expect(c.children[0]?.attributes.message).toBe(']]> </failure>   &amp;');
    expect(suites(xml).map((s) => s.attributes.name)).toContain("op'<x>");
  });

  it('counts a SHOULD fail as a pass with a note, not a failure', () => {
    const run = loadFixture('conformant');
    const r = run.results[2];
    if (!r) throw new Error('fixture changed');
    r.status = 'fail';
    r.message = 'Expected page tags, received none';
    const xml = renderJunit(run);
    expect(parseXml(xml).attributes.failures).toBe('0');
    expect(testcase(xml, 'find-member-v1', 'paging-tags-match-request').children[0]?.name).toBe('system-out');
  });
});
