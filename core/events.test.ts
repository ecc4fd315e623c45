import { describe, expect, test } from 'vitest';
import { type RunEvent, RunEventBus } from './events.ts';

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
