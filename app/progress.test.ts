import { mkdtempSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { colourAllowed, Progress } from './progress.ts';

const OPS = [
  { id: 'list-insurers', suite: 'lookups' },
  { id: 'lookup-locations', suite: 'lookups' },
  { id: 'get-code-set', suite: 'code-sets' },
];

function result(operation: string, status: string, level = 'MUST') {
  return `${JSON.stringify({ type: 'check-evaluated', result: { operation, status, level, check: 'c', requirements: [], message: '', summary: '' } })}\n`;
}

function run(tty: boolean, color = false) {
  const dir = mkdtempSync(join(tmpdir(), 'progress-'));
  let out = '';
  let clock = 0;
  const p = new Progress({ write: (t) => (out += t), tty, color, columns: 60, now: () => clock });
  p.start(OPS, dir);
  p.suiteStarted('lookups');
  appendFileSync(join(dir, 'events-1-1.jsonl'), result('list-insurers', 'pass') + result('list-insurers', 'fail'));
  appendFileSync(join(dir, 'events-1-1.jsonl'), result('lookup-locations', 'pass'));
  clock = 3000;
  p.suiteFinished('lookups');
  p.suiteStarted('code-sets');
  appendFileSync(
    join(dir, 'events-1-2.jsonl'),
    result('get-code-set', 'pass') + result('get-code-set', 'skip', 'SHOULD'),
  );
  p.suiteFinished('code-sets');
  p.stop();
  return out;
}

describe('Progress', () => {
  test('off a terminal: one plain line per finished operation with its counts, no cursor codes', () => {
    const out = run(false);
    expect(out).not.toContain('\u001b');
    expect(out.split('\n').filter(Boolean)).toEqual([
      'Judging 3 operations',
      'FAIL list-insurers     1 pass, 1 fail',
      'ok   lookup-locations  1 pass, 0 fail',
      'ok   get-code-set      1 pass, 0 fail, 1 skip',
    ]);
  });

  test('on a terminal: a live line rewritten in place, cleared before each finished line and at the end', () => {
    const out = run(true, true);
    expect(out).toContain('\r\u001b[2K0/3 operations judged · 0 s · running lookups');
    expect(out).toContain('\r\u001b[2K2/3 operations judged · 3 s');
    expect(out).toContain('\u001b[31mFAIL\u001b[0m list-insurers');
    expect(out).toContain('\u001b[32mok  \u001b[0m get-code-set');
    // The last thing written clears the live line, so the summary starts on a clean line.
    expect(out.endsWith('\r\u001b[2K')).toBe(true);
  });
});

describe('colourAllowed', () => {
  test('only on a terminal, never with NO_COLOR, FORCE_COLOR=0 or TERM=dumb', () => {
    expect(colourAllowed({ isTTY: true }, {})).toBe(true);
    expect(colourAllowed({ isTTY: false }, {})).toBe(false);
    expect(colourAllowed({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourAllowed({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourAllowed({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});
