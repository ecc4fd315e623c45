/**
 * Allure reporting from inside the suites (allure-vitest): one hook called for every recorded
 * result, with the masked exchange it judged.
 */
import type { WorkerResult } from './events.ts';
import type { ExchangeRecord } from './results.ts';

/** Labels the current vitest test with the result's operation, section, requirements and severity, and attaches the exchange. */
export function reportToAllure(_result: WorkerResult, _exchange: ExchangeRecord | undefined): void {
  // Filled in by the Allure integration.
}
