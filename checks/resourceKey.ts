/**
 * Identity of a resource across pages and queries: `resourceType/id`, or the bare id when the
 * resource carries no `resourceType` (e.g. pending-batch headers, 2.6).
 */
import { isRecord } from '../core/exchange.ts';

export function resourceKey(resource: unknown): string | undefined {
  if (!isRecord(resource)) return undefined;
  const id = resource.id;
  let text: string;
  if (typeof id === 'string' && id !== '') text = id;
  else if (typeof id === 'number' && Number.isFinite(id)) text = String(id);
  else return undefined;
  const type = resource.resourceType;
  return typeof type === 'string' && type !== '' ? `${type}/${text}` : text;
}

/** The key of a resource, or its position in the bundle when it has no id (for messages). */
export function resourceLabel(resource: unknown, index: number): string {
  return resourceKey(resource) ?? `entry ${index + 1}`;
}
