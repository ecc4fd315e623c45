import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { EventFile, type RunEvent, RunEventBus, readEvents, type WorkerEvent } from './events.ts';

describe('RunEventBus', () => {
  test('calls the subscribers of an event type in subscription order, awaiting each, and no others', async () => {
    const bus = new RunEventBus();
    const seen: string[] = [];
    bus
      .on('run-started', async (e) => {
        await new Promise((r) => setTimeout(r, 5));
        seen.push(`first ${e.seed}`);
      })
      .on('run-started', (e) => {
        seen.push(`second ${e.target}`);
      })
      .on('decision-applied', (e) => {
        seen.push(e.decision);
      });
    const started: RunEvent = { type: 'run-started', target: 'http://t', operations: [], seed: 7, runs: 1 };
    await bus.emit(started);
    await bus.emit({ type: 'exchange-recorded', id: 'x', exchange: {} as never });
    await bus.emit({ type: 'decision-applied', decision: 'DEC-D1-01' });
    expect(seen).toEqual(['first 7', 'second http://t', 'DEC-D1-01']);
  });
});

describe('readEvents', () => {
  test('reads every worker file of the run folder in order, line by line, skipping a partial last line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'events-'));
    const decision = (d: string): WorkerEvent => ({ type: 'decision-applied', decision: d });
    new EventFile(dir).emit(decision('DEC-é-01'));
    writeFileSync(join(dir, 'events-0-a.jsonl'), `${JSON.stringify(decision('DEC-A'))}\n\n`);
    appendFileSync(join(dir, 'events-0-a.jsonl'), `${JSON.stringify(decision('DEC-B'))}\n{"type":"deci`);
    writeFileSync(join(dir, 'breaker-x.stopped'), 'not an event file');
    expect(readEvents(dir).map((e) => (e.type === 'decision-applied' ? e.decision : e.type))).toEqual([
      'DEC-A',
      'DEC-B',
      'DEC-é-01',
    ]);
  });
});
