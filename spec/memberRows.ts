/**
 * Which requirement rows are about a member of an answer: the one reading of "this row names that
 * member", shared by the schema judgement (a schema failure cites the rows of the member that
 * failed, issue 24) and the power computation (a derived shape fault proves the rows of the member
 * it breaks, issue 22; server/faults/derived.ts and scripts/power.ts).
 *
 * A row is about a member when its text names the member in backticks and, for a nested member,
 * names its parent (in backticks or plainly: "extension entry with `id`").
 */
import type { Level } from './types.ts';
import { loadRequirements, type Requirement } from './requirements.ts';

/**
 * Member names a text names: the words inside its backticks (`name.given`, `valueMoney.value`).
 * A backticked request (`type=P`, `count=0`) names a parameter and its value, not a member.
 */
export function namedMembers(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/`([^`]+)`/g)) {
    if ((m[1] as string).includes('=')) continue;
    for (const word of (m[1] as string).split(/[^A-Za-z0-9_]+/)) if (word !== '') names.add(word);
  }
  return names;
}

/**
 * The member names a row must name to be about a member: the member itself and, when nested, its
 * nearest parent that is not a Bundle's `entry`/`resource` wrapping (a resource's own members are
 * named alone: "Coverage ... `id`").
 */
export function memberKeys(path: readonly string[]): string[] {
  const names = path.filter((p) => p !== '*');
  const leaf = names[names.length - 1];
  if (leaf === undefined) return [];
  const parents = names.slice(0, -1);
  const resourceAt = parents.lastIndexOf('resource');
  const own = resourceAt >= 0 && parents[0] === 'entry' ? parents.slice(resourceAt + 1) : parents;
  const parent = own[own.length - 1];
  return parent === undefined ? [leaf] : [parent, leaf];
}

/**
 * True when a row's text is about the member at this path: it names the member in backticks and,
 * for a nested member, names its parent (in backticks or plainly: "extension entry with `id`").
 * A resource's own member is the row's subject only when no nested member of that name has its
 * parent named there (D2-2.2-06's "extension entry with `id`" is not about the ValueSet's `id`).
 * `paths` are the instance paths of every member of the answer (empty when not known).
 */
export function textNamesMember(text: string, path: readonly string[], paths: readonly (readonly string[])[]): boolean {
  const named = namedMembers(text);
  const words = new Set([...named, ...(text.match(/[A-Za-z0-9_]+/g) ?? [])]);
  const keys = memberKeys(path);
  const leaf = keys[keys.length - 1];
  const parent = keys.length === 2 ? keys[0] : undefined;
  if (leaf === undefined || !named.has(leaf)) return false;
  if (parent !== undefined) return words.has(parent);
  return !paths.some((other) => {
    const keys = memberKeys(other);
    return keys.length === 2 && keys[1] === leaf && words.has(keys[0] as string);
  });
}

/** A JSON pointer (`/entry/0/resource/id`) as member path segments, array indexes as `*`. */
export function pointerPath(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((s) => (/^\d+$/.test(s) ? '*' : s));
}

/**
 * The testable server rows of an operation at a level that are about the member at a JSON pointer,
 * or, when none names it, about its nearest named parent (a wrong `display` of a paging tag is
 * about `meta.tag[]`). Empty when no row of the operation names the member or any parent.
 */
export function rowsAboutMember(operation: string, pointer: string, level: Level): string[] {
  const rows = rowsOf(operation, level);
  let path = pointerPath(pointer);
  while (path.length > 0) {
    const about = rows.filter((r) => textNamesMember(r.text, path, [])).map((r) => r.id);
    if (about.length > 0) return about;
    path = path.slice(0, -1);
    while (path[path.length - 1] === '*') path = path.slice(0, -1);
  }
  return [];
}

const byOperation = new Map<string, Requirement[]>();

function rowsOf(operation: string, level: Level): Requirement[] {
  const key = `${operation}\u0000${level}`;
  let rows = byOperation.get(key);
  if (rows === undefined) {
    rows = loadRequirements('server').filter(
      (r) => r.level === level && r.notTestedReason === '' && r.operations.includes(operation),
    );
    byOperation.set(key, rows);
  }
  return rows;
}
