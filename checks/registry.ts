/**
 * The one registry of checks, keyed by check id: what faults name as their `expectedCheck`, what
 * the self-tests look up, and what every result's `check` must be. A check is an export of
 * ./index.ts (a check object, or a factory whose checks share one id), named after its id
 * (`entries-match-filter` is `entriesMatchFilter`, checks/index.test.ts enforces it). Besides the
 * checks, a few outcomes are decided by the suite or the runner itself, named like checks.
 */
import { decidedOutcome } from '../core/decidedOutcomes.ts';
import * as exported from './index.ts';

/** Exported functions of ./index.ts that are helpers, not checks. */
export const HELPER_EXPORTS: ReadonlySet<string> = new Set([
  'resourceKey',
  'codeKey',
  'haversineKm',
  'referenceId',
  'roleReferences',
]);

export interface RegisteredCheck {
  id: string;
  /** Name of the export in checks/index.ts. */
  exportName: string;
  kind: 'check' | 'factory';
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function build(): Map<string, RegisteredCheck> {
  const map = new Map<string, RegisteredCheck>();
  for (const [name, value] of Object.entries(exported)) {
    if (HELPER_EXPORTS.has(name)) continue;
    if (typeof value === 'function') map.set(kebab(name), { id: kebab(name), exportName: name, kind: 'factory' });
    else if (typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string') {
      const id = (value as { id: string }).id;
      map.set(id, { id, exportName: name, kind: 'check' });
    }
  }
  return map;
}

export const CHECK_REGISTRY: ReadonlyMap<string, RegisteredCheck> = build();

/** True when results may carry this check id: a registered check, or a suite- or runner-decided outcome. */
export const isKnownCheckId = (id: string): boolean => CHECK_REGISTRY.has(id) || decidedOutcome(id) !== undefined;
