/**
 * Caps on the evidence a run keeps, so that no answer size can exhaust memory or break
 * results.json. Checks judge the body in memory (already cut at `http.maxResponseBytes` when it
 * arrives); what is recorded as evidence is cut further, after masking:
 *
 * - per exchange, a body keeps at most `http.maxEvidenceBytes` (default 64 KiB), followed by a
 *   note saying how many bytes were received;
 * - per run, bodies share `http.maxRunEvidenceBytes` (default 32 MiB); once it is used up, further
 *   bodies are dropped from the evidence with a note. Suites run in several worker threads, so
 *   each worker writes what it used into the run folder and reads what the others used.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { ExchangeRecord } from './results.ts';

/** The defaults of the config's `http.maxEvidenceBytes` and `http.maxRunEvidenceBytes`. */
export const EVIDENCE_DEFAULTS = { maxEvidenceBytes: 64 * 1024, maxRunEvidenceBytes: 32 * 1024 * 1024 } as const;

/**
 * The first bytes of `text`, at most `max` of them in UTF-8, never half a character. A cut text is
 * a fresh string: a slice would keep the whole body it was cut from alive as long as the evidence.
 */
export function utf8Prefix(text: string, max: number): string {
  if (text.length <= max / 3) return text; // three bytes per UTF-16 unit at most
  // Every UTF-16 unit takes at least one byte: the prefix lies within the first `max` units, so a
  // body of megabytes is never encoded whole. A pair of units cut in half is left out.
  let head = text.length > max ? text.slice(0, max) : text;
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  const bytes = Buffer.from(head, 'utf8');
  if (head === text && bytes.length <= max) return text;
  let end = Math.min(max, bytes.length);
  if (end < bytes.length) while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // back to a character's start
  return bytes.subarray(0, end).toString('utf8');
}

/** Whether a body's bytes were `received` (a response) or `sent` (a request). */
export type Direction = 'received' | 'sent';

/** A body as kept in evidence: whole within `max` bytes, else its first `max` bytes and a note. */
export function cappedBody(text: string, max: number, total: number, direction: Direction = 'received'): string {
  const kept = utf8Prefix(text, max);
  if (kept === text) return text;
  return `${kept}\n…[truncated: ${Buffer.byteLength(kept)} bytes kept as evidence, ${total} bytes ${direction}]`;
}

/** The body left in place of one the run's evidence budget could not take. */
export function droppedBody(budget: number, total: number, direction: Direction = 'received'): string {
  return `…[dropped: the run's evidence budget of ${budget} bytes is used up, ${total} bytes ${direction}]`;
}

const LEDGER = 'evidence-budget-';

/**
 * The run's budget of body bytes kept as evidence, shared by the workers through the run folder.
 * Each worker writes what it used to its own ledger file and reads the others' at its first take,
 * every 1/64 of the budget it uses (at most 1 MiB), and on every take once the run is past half
 * its budget: a run far from the budget (nearly every run) touches the disk a few times instead of
 * at every exchange (0.35 s of CPU per worker in a full run). Near the end the accounting is exact
 * to within one such interval per worker.
 */
export class EvidenceBudget {
  private used = 0;
  private written = 0;
  private others = -1;
  private readonly ledger: string | undefined;
  private readonly flushEvery: number;

  /**
   * @param total bytes of body text the run keeps at most
   * @param dir the run folder (shared by the workers); without it the budget is this process's alone
   * @param worker names this worker's ledger in the run folder
   */
  constructor(
    readonly total: number,
    private readonly dir?: string,
    worker = `${process.pid}-${threadId}`,
  ) {
    this.ledger = dir === undefined ? undefined : join(dir, `${LEDGER}${worker}`);
    this.flushEvery = Math.max(1, Math.min(1024 * 1024, Math.floor(total / 64)));
  }

  /** Takes `bytes` from the budget; false (and nothing taken) when they do not fit any more. */
  take(bytes: number): boolean {
    if (bytes === 0) return true;
    const projected = this.used + bytes;
    // The others' use is read on the first take, at each flush of this worker's ledger, and on
    // every take once the run is past half its budget.
    if (this.others < 0 || projected + this.others > this.total / 2) this.others = this.usedByOthers();
    if (projected + this.others > this.total) return false;
    this.used = projected;
    if (this.ledger && this.used - this.written >= this.flushEvery) this.others = this.usedByOthers();
    return true;
  }

  private usedByOthers(): number {
    if (this.dir === undefined || this.ledger === undefined) return 0;
    // What this worker used is written first, so that the others see it as they come near the end.
    if (this.used !== this.written) {
      writeFileSync(this.ledger, String(this.used));
      this.written = this.used;
    }
    let sum = 0;
    for (const name of readdirSync(this.dir)) {
      const file = join(this.dir, name);
      if (!name.startsWith(LEDGER) || file === this.ledger) continue;
      try {
        sum += Number(readFileSync(file, 'utf8')) || 0;
      } catch {
        // a ledger being replaced is read on the next call
      }
    }
    return sum;
  }
}

/** The record with its bodies charged to the run's budget, each dropped (with a note) when it does not fit. */
export function withinBudget(x: ExchangeRecord, budget: EvidenceBudget): ExchangeRecord {
  const charge = (body: string, total: number, direction: Direction): string =>
    budget.take(Buffer.byteLength(body)) ? body : droppedBody(budget.total, total, direction);
  const requestBody = x.request.body;
  return {
    ...x,
    request: {
      ...x.request,
      ...(requestBody !== undefined ? { body: charge(requestBody, Buffer.byteLength(requestBody), 'sent') } : {}),
    },
    ...(x.response ? { response: { ...x.response, body: charge(x.response.body, x.response.size, 'received') } } : {}),
  };
}
