/**
 * Reading PractitionerRole bundles (document 2, 2.3 and 4.11): the role entries and the
 * `Practitioner/<id>` and `Location/<id>` references they carry.
 */
import { isRecord } from '../core/exchange.ts';
import type { BundleView } from './readJson.ts';

export type RoleReferenceField = 'practitioner' | 'location';

export interface RoleEntry {
  /** The entry as sent (for `search.mode`). */
  entry: Record<string, unknown>;
  resource: Record<string, unknown>;
  /** Position in `entry[]`, from 0. */
  index: number;
}

/** Entries whose resource is a PractitionerRole. */
export function roleEntries(view: BundleView): RoleEntry[] {
  const roles: RoleEntry[] = [];
  view.entries.forEach((entry, index) => {
    if (isRecord(entry) && isRecord(entry.resource) && entry.resource.resourceType === 'PractitionerRole') {
      roles.push({ entry, resource: entry.resource, index });
    }
  });
  return roles;
}

/** One compiled pattern per resource type. */
const patterns = new Map<string, RegExp>();

/**
 * The id a reference names for a resource type: `Location/7`, an absolute
 * `https://host/fhir/Location/7` or a versioned `Location/7/_history/2` all give `7`.
 */
export function referenceId(reference: unknown, type: string): string | undefined {
  if (typeof reference !== 'string') return undefined;
  let pattern = patterns.get(type);
  if (pattern === undefined) {
    pattern = new RegExp(`(?:^|/)${type.replace(/[^A-Za-z0-9]/g, '')}/([^/?#\\s]+)(?:/_history/[^/?#\\s]+)?$`);
    patterns.set(type, pattern);
  }
  const match = pattern.exec(reference);
  return match ? match[1] : undefined;
}

/** `reference` of an `{ reference }` object, when it is a non-empty string. */
function referenceOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.reference === 'string' && value.reference.trim() !== ''
    ? value.reference
    : undefined;
}

/**
 * The distinct references a role makes in one field (`practitioner.reference`, or every
 * `location[].reference`), each as `Practitioner/<id>` / `Location/<id>` when it parses as one,
 * otherwise as sent. Never throws; odd shapes give no references.
 */
export function roleReferences(role: unknown, field: RoleReferenceField): string[] {
  if (!isRecord(role)) return [];
  const type = field === 'practitioner' ? 'Practitioner' : 'Location';
  const raw =
    field === 'practitioner'
      ? [referenceOf(role.practitioner)]
      : Array.isArray(role.location)
        ? role.location.map(referenceOf)
        : [];
  const keys = new Set<string>();
  for (const reference of raw) {
    if (reference === undefined) continue;
    const id = referenceId(reference, type);
    keys.add(id === undefined ? reference : `${type}/${id}`);
  }
  return [...keys];
}
