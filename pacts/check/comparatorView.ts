/**
 * The exported OpenAPI document as PactFlow's comparator can read it. The comparator gathers the
 * components a schema uses by walking only the keywords of OpenAPI 3.0 (allOf, oneOf, anyOf,
 * properties, not, items, additionalProperties), so a `$ref` under a JSON Schema 2020-12 keyword
 * (if / then / else, prefixItems, contains, patternProperties, ...) is missed and its compilation
 * fails. Inlining the referenced schema there keeps the meaning (the reference resolves in the
 * same document) and gives it what it can walk. A reference cycle stops at `{}` (accepts any
 * value: less strict, never stricter, than the document). Answers are read as a consumer may rely
 * on part of them (responsesAsSubsets).
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

/**
 * Keywords by which a documented answer demands more than a consumer may rely on: members and items
 * it must hold, and the conditions tying members together (`if`/`then`/`else`, `not`,
 * `dependentSchemas`), which a part of an answer can satisfy only vacuously or not at all.
 */
const DEMANDS = new Set([
  'required',
  'minItems',
  'minProperties',
  'contains',
  'minContains',
  'maxContains',
  'dependentRequired',
  'dependentSchemas',
  'if',
  'then',
  'else',
  'not',
]);
/** Keywords whose value maps names to schemas (a member named `required` is not the keyword). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
/** Keywords whose value is one schema, or (for `items` of older drafts) a list of them. */
const SCHEMA_VALUES = new Set([
  'items',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'prefixItems']);

/**
 * A schema of an answer as a consumer may rely on part of it: what the answer must hold (`required`,
 * `minItems`, `contains` ...) and the conditions between members are dropped, and `oneOf` is read
 * as `anyOf` (a part may fit several alternatives). Everything that says what a member is, when present (types, `const`, `enum`,
 * patterns, formats, `additionalProperties: false`), stays: a pact that expects a value or member
 * the documents never give is still refused.
 */
function asSubset(node: Json): Json {
  if (Array.isArray(node)) return node.map(asSubset);
  if (!isObject(node)) return node;
  const out: { [key: string]: Json } = {};
  const alternatives: Json[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (DEMANDS.has(k)) continue;
    if (k === 'oneOf' && Array.isArray(v)) alternatives.push({ anyOf: v.map(asSubset) });
    else if (SCHEMA_MAPS.has(k) && isObject(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([name, schema]) => [name, asSubset(schema)]));
    else if (SCHEMA_VALUES.has(k) || SCHEMA_LISTS.has(k)) out[k] = asSubset(v);
    else out[k] = v;
  }
  if (alternatives.length === 0) return out;
  if (out.anyOf === undefined) return { ...out, anyOf: (alternatives[0] as { anyOf: Json }).anyOf };
  return { ...out, allOf: [...(Array.isArray(out.allOf) ? out.allOf : []), ...alternatives] };
}

/**
 * Every answer's schema (paths -> method -> responses -> content -> schema) inlined and read as a
 * subset (asSubset): a consumer's pact may expect less than the documents give (issue 31), while
 * requests keep the documents' full demands through the shared components.
 */
function responsesAsSubsets(root: Json): Json {
  if (!isObject(root) || !isObject(root.paths)) return root;
  const paths = Object.fromEntries(
    Object.entries(root.paths).map(([path, item]) => {
      if (!isObject(item)) return [path, item];
      const methods = Object.fromEntries(
        Object.entries(item).map(([method, op]) => {
          if (!isObject(op) || !isObject(op.responses)) return [method, op];
          const responses = Object.fromEntries(
            Object.entries(op.responses).map(([status, response]) => {
              if (!isObject(response) || !isObject(response.content)) return [status, response];
              const content = Object.fromEntries(
                Object.entries(response.content).map(([mediaType, media]) =>
                  isObject(media) && media.schema !== undefined
                    ? [mediaType, { ...media, schema: asSubset(inline(media.schema, root, [])) }]
                    : [mediaType, media],
                ),
              );
              return [status, { ...response, content }];
            }),
          );
          return [method, { ...op, responses }];
        }),
      );
      return [path, methods];
    }),
  );
  return { ...root, paths };
}

export function comparatorView(document: object): object {
  const root = document as Json;
  return walk(responsesAsSubsets(root), root) as object;
}
