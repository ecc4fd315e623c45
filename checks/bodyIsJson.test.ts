import { describe, expect, it } from 'vitest';
import { bodyIsJson } from './bodyIsJson.ts';
import { respondedExchange } from './testing.ts';

describe('bodyIsJson', () => {
  it('passes on a JSON body', () => {
    expect(bodyIsJson.run(respondedExchange({ body: { a: 1 } })).outcome).toBe('pass');
    expect(bodyIsJson.run(respondedExchange({ body: 'null' })).outcome).toBe('pass');
  });

  it('fails on HTML with the parse error and the start of the body', () => {
    const html = `<html>\n<body>${'x'.repeat(200)}</body></html>`;
    const finding = bodyIsJson.run(respondedExchange({ body: html }));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toMatch(
      /^Expected a JSON body, received text that does not parse \(.+\): "<html>\\n<body>x+"$/,
    );
    expect(finding.message).not.toContain('\n');
    expect(finding.message).not.toContain('x'.repeat(60));
  });

  it('does not apply to an empty body', () => {
    expect(bodyIsJson.appliesTo?.(respondedExchange({ body: '' }))).toBe(false);
    expect(bodyIsJson.appliesTo?.(respondedExchange({ body: '  ' }))).toBe(false);
  });

  it('skips a body truncated at the size cap', () => {
    expect(bodyIsJson.run(respondedExchange({ body: '{"a":', truncated: true })).outcome).toBe('skip');
  });
});
