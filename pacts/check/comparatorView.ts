/**
 * The exported OpenAPI document as PactFlow's comparator can read it. The comparator gathers the
 * components a schema uses by walking only the keywords of OpenAPI 3.0 (allOf, oneOf, anyOf,
 * properties, not, items, additionalProperties), so a `$ref` under a JSON Schema 2020-12 keyword
 * (if / then / else, prefixItems, contains, patternProperties, ...) is missed and its compilation
 * fails. Inlining the referenced schema there keeps the meaning (the reference resolves in the
 * same document) and gives it what it can walk. A reference cycle stops at `{}` (accepts any
 * value: less strict, never stricter, than the document).
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const UNWALKED = new Set([
  'if',
  'then',
  'else',
  'prefixItems',
  'contains',
  'patternProperties',
  'dependentSchemas',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

const isObject = (v: Json | undefined): v is { [key: string]: Json } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function pointer(root: Json, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return node;
}

function inline(node: Json, root: Json, seen: readonly string[]): Json {
  if (Array.isArray(node)) return node.map((n) => inline(n, root, seen));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const target = pointer(root, ref);
    if (target === undefined || seen.includes(ref)) return {};
    const { $ref: _ref, ...rest } = node;
    const resolved = inline(target, root, [...seen, ref]);
    return Object.keys(rest).length === 0 ? resolved : { allOf: [resolved, inline(rest, root, seen)] };
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, root, seen)]));
}

function walk(node: Json, root: Json): Json {
  if (Array.isArray(node)) return node.map((n) => walk(n, root));
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, UNWALKED.has(k) ? inline(v, root, []) : walk(v, root)]),
  );
}

export function comparatorView(document: object): object {
  const root = document as Json;
  return walk(root, root) as object;
}
