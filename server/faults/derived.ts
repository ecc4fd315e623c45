/**
 * Derived shape faults: generated from each operation's success response schema (schemas/*.json,
 * the operation table's `responseSchema`), not written by hand. The 80-odd hand-written faults
 * (catalog.ts) each break one behavioural rule; these break the documented shape member by member,
 * so that the self-test can prove the shape rows of spec/requirements.csv too (issue 22, item 9).
 *
 * Per operation, the schema of its success answer is walked (JSON Schema 2020-12: `$ref`, `allOf`,
 * `if`/`then`, the null-wrapping `anyOf [X, {type: null}]` of an optional member, `properties`,
 * `required`, `items`) and every member found gives:
 *
 * - `missing`: a required member dropped;
 * - `absent`: an optional member dropped, only where a testable MUST row of the operation names it
 *   (spec/requirements.csv): the schema may leave optional what the row demands (D2-2.2-04 said
 *   each code-set item carries a `display`, the schema did not require it). Not catching one is
 *   not a hole by itself: the row may allow absence (an extension 0-1); scripts/power.ts lists
 *   those not caught for a reader to check against the row and its decision;
 * - `type`: a member whose schema restricts its JSON type given a value of another type;
 * - `unlisted`: a member whose schema lists its values (`enum`, `const`) given an unlisted one.
 *
 * A fault is a `reply` modifier of its one operation that edits the success body at the member's
 * instance path, `*` standing for every item of an array: every entry resource of a Bundle, every
 * item of a list that holds the member is changed, so the change is seen wherever the suite looks.
 * Its name says all of that: `shape:get-code-set:/expansion/contains/*\/display:missing`. Like a
 * hand-written fault it is applied to the routes of its operation, so where operations share a
 * route (find-member v1 and v2, the contract upserts) it edits the answers of all of them. Only
 * success answers (2xx, of the schema's `resourceType`) are edited: error bodies keep their shape.
 * The listing is `derivedFaults()`, kept apart from the hand-written FAULTS that the self-test and
 * `conformance faults` list; ActiveFaults (catalog.ts) switches either kind on by name.
 *
 * Alternatives (`oneOf`, an `anyOf` of several non-null forms) are not walked: a member required
 * by one documented form is not required by the other (DEC-D2-43), so dropping it need not break
 * the answer, and a fault that breaks nothing would be reported as a hole the suite does not have.
 */
import { schemaFor, type JsonSchema } from '../../core/schemaRegistry.ts';
import { operations } from '../../spec/operations.ts';
import { textNamesMember } from '../../spec/memberRows.ts';
import { loadRequirements } from '../../spec/requirements.ts';
import { isObject, type JsonObject } from '../modifiers/json.ts';
import type { Modifier, SandboxReply } from '../router/types.ts';

/** Every derived fault's name starts so; no hand-written fault's does. */
export const DERIVED_FAULT_PREFIX = 'shape:';

/**
 * The response header naming the derived faults that changed an answer. It lets the power
 * computation (scripts/power.ts) credit a fault only with failures judged on answers it changed,
 * never with those of another fault of the same run; a conforming server may send any further
 * header (variant `cache-and-trace-headers`), so the mark itself breaks no rule.
 */
export const DERIVED_FAULT_HEADER = 'x-sandbox-derived-fault';

export type DerivedFaultKind = 'missing' | 'absent' | 'type' | 'unlisted';

export interface DerivedFaultInfo {
  /** `shape:<operation>:<instance path>:<kind>`. */
  name: string;
  kind: DerivedFaultKind;
  /** The one operation whose success answer the fault edits. */
  operations: [string];
  /** Instance path of the member: member names, `*` for every item of an array. */
  path: readonly string[];
  /** The schema file the member was found in (the operation's `responseSchema`). */
  schema: string;
  /** What the member becomes: absent, or this value. */
  value?: unknown;
  /** One line: what the fault does, for listings. */
  description: string;
}

/** Every JSON type a schema's `type` can name. */
type JsonType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string';
const ALL_TYPES: readonly JsonType[] = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'];

/** A schema node with the file its relative `$ref`s resolve against, and the `$ref`s followed to reach it. */
interface Located {
  schema: JsonSchema;
  file: string;
  refs: readonly string[];
  /**
   * Members the `if` tests whose `then` this node is (or lies in): a `then` requiring one of them
   * requires nothing, since without the member the `if` fails (a paging tag without its `code` is
   * a plain coding, not a paging tag missing its code).
   */
  conditional?: readonly string[];
}

/** Deeper than any documented shape; stops the recursion of self-referring definitions (nested extensions). */
const MAX_DEPTH = 14;

/** Resolves `$ref` (`#/$defs/x`, `common.schema.json#/$defs/x`, `bundle.schema.json`) against the node's file. */
function resolve(ref: string, file: string, refs: readonly string[] = []): Located {
  const hash = ref.indexOf('#');
  const target = hash < 0 ? ref : ref.slice(0, hash);
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  const targetFile = target === '' ? file : target;
  let node: unknown = schemaFor(targetFile);
  for (const part of pointer.split('/').filter((p) => p !== '')) {
    node = isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  if (!isObject(node)) throw new Error(`Unresolvable $ref ${ref} in ${file}`);
  return { schema: node, file: targetFile, refs: [...refs, `${targetFile}#${pointer}`] };
}

const list = (v: unknown): JsonSchema[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** The non-null forms of an `anyOf`/`oneOf`, when it is the null-wrapping of one optional member. */
function nullWrapped(node: JsonSchema): JsonSchema | undefined {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const forms = list(node[key]);
    if (forms.length === 0) continue;
    const nonNull = forms.filter((f) => !(f.type === 'null' && Object.keys(f).every((k) => k === 'type')));
    if (nonNull.length === 1 && forms.length === 2) return nonNull[0];
  }
  return undefined;
}

/**
 * The schema nodes that apply to one instance together: the node itself, what its `$ref` and
 * `allOf` name, the one form of a null-wrapping `anyOf`, and the `then` of an `if` (conditional:
 * the fault edits every instance, so those the condition selects are broken).
 */
function conjuncts(start: Located): Located[] {
  const out: Located[] = [];
  const visit = (n: Located) => {
    out.push(n);
    const ref = n.schema.$ref;
    if (typeof ref === 'string') {
      const target = { ...resolve(ref, n.file, n.refs), ...(n.conditional ? { conditional: n.conditional } : {}) };
      // A definition met again inside itself (an extension nesting extensions) is walked once.
      const key = target.refs[target.refs.length - 1];
      if (!n.refs.includes(key)) visit(target);
    }
    const inner = (schema: JsonSchema, conditional = n.conditional) =>
      visit({ schema, file: n.file, refs: n.refs, ...(conditional ? { conditional } : {}) });
    for (const s of list(n.schema.allOf)) inner(s);
    const wrapped = nullWrapped(n.schema);
    if (wrapped) inner(wrapped);
    if (isObject(n.schema.then)) inner(n.schema.then, [...(n.conditional ?? []), ...testedBy(n.schema.if)]);
  };
  visit(start);
  return out;
}

/** The members an `if` tests: those it requires or constrains. */
function testedBy(condition: unknown): string[] {
  if (!isObject(condition)) return [];
  const required = Array.isArray(condition.required) ? condition.required.filter((r) => typeof r === 'string') : [];
  return [...new Set([...required, ...(isObject(condition.properties) ? Object.keys(condition.properties) : [])])];
}

/** The JSON types one schema node allows on its own (undefined: no restriction). */
function ownTypes(node: JsonSchema, file: string): Set<JsonType> | undefined {
  let allowed: Set<JsonType> | undefined;
  const narrow = (types: Iterable<JsonType>) => {
    const next = new Set(types);
    allowed = allowed
      ? new Set([...allowed].filter((t) => next.has(t) || (t === 'integer' && next.has('number'))))
      : next;
  };
  if (typeof node.type === 'string') narrow(withInteger([node.type as JsonType]));
  if (Array.isArray(node.type)) narrow(withInteger(node.type as JsonType[]));
  const values = listedValues(node);
  if (values) narrow(withInteger(values.map(typeOf)));
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const target = resolve(ref, file);
    const t = typesOf(target);
    if (t) narrow(t);
  }
  for (const s of list(node.allOf)) {
    const t = ownTypes(s, file);
    if (t) narrow(t);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const forms = list(node[key]);
    if (forms.length === 0) continue;
    const union = new Set<JsonType>();
    let open = false;
    for (const f of forms) {
      const t = ownTypes(f, file);
      if (!t) open = true;
      else for (const x of t) union.add(x);
    }
    if (!open) narrow(union);
  }
  return allowed;
}

/** A type list with `integer` added wherever `number` is (an integer is a number). */
const withInteger = (types: JsonType[]): JsonType[] => (types.includes('number') ? [...types, 'integer'] : types);

function typesOf(n: Located): Set<JsonType> | undefined {
  return ownTypes(n.schema, n.file);
}

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** `enum` or `const` values of one node. */
function listedValues(node: JsonSchema): unknown[] | undefined {
  if (Array.isArray(node.enum)) return node.enum;
  if ('const' in node) return [node.const];
  return undefined;
}

/** The values allowed by every node that lists some (undefined when none lists values). */
function valuesOf(nodes: readonly Located[]): unknown[] | undefined {
  let allowed: unknown[] | undefined;
  for (const n of nodes) {
    const own = listedValues(n.schema);
    // A null-wrapped enum lists its values in its one non-null form, which conjuncts() reaches.
    if (!own) continue;
    allowed = allowed ? allowed.filter((v) => own.some((w) => JSON.stringify(w) === JSON.stringify(v))) : own;
  }
  return allowed;
}

/** The intersection of the types every node allows (undefined when none restricts). */
function allowedTypes(nodes: readonly Located[]): Set<JsonType> | undefined {
  let allowed: Set<JsonType> | undefined;
  for (const n of nodes) {
    const t = ownTypes(n.schema, n.file);
    if (!t) continue;
    allowed = allowed ? new Set([...allowed].filter((x) => t.has(x))) : t;
  }
  return allowed;
}

/** Candidate values of other types, in order of preference: digits as text first, a plain reader's likeliest slip. */
const OTHER_TYPE_VALUES: readonly unknown[] = ['42', 42, true, ['42'], { value: '42' }];

function otherTypeValue(allowed: Set<JsonType>): unknown {
  return OTHER_TYPE_VALUES.find((v) => {
    const t = typeOf(v);
    return !allowed.has(t) && !(t === 'integer' && allowed.has('number'));
  });
}

/** A value outside a listed set, of the listed values' type. */
function unlistedValue(values: readonly unknown[]): unknown {
  const present = values.filter((v) => v !== null);
  if (present.length === 0) return undefined;
  if (present.every((v) => typeof v === 'number')) return Math.max(...(present as number[])) + 1000;
  if (present.every((v) => typeof v === 'boolean')) return !present.includes(true);
  if (present.every((v) => typeof v === 'string')) return 'UNLISTED';
  return undefined;
}

interface Member {
  path: string[];
  required: boolean;
  types?: Set<JsonType>;
  values?: unknown[];
}

/** Every member the schema names, depth first, with what its schema says of it. */
function membersOf(schemaFile: string): Member[] {
  const out: Member[] = [];
  const walk = (nodes: Located[], path: string[]) => {
    if (path.length >= MAX_DEPTH) return;
    const required = new Set<string>();
    const children = new Map<string, Located[]>();
    const items: Located[] = [];
    for (const n of nodes) {
      for (const r of Array.isArray(n.schema.required) ? n.schema.required : [])
        if (typeof r === 'string' && !n.conditional?.includes(r)) required.add(r);
      if (isObject(n.schema.properties))
        for (const [key, sub] of Object.entries(n.schema.properties))
          if (isObject(sub))
            children.set(key, [...(children.get(key) ?? []), { schema: sub, file: n.file, refs: n.refs }]);
      if (isObject(n.schema.items)) items.push({ schema: n.schema.items, file: n.file, refs: n.refs });
    }
    const keys = [...new Set([...children.keys(), ...required])];
    for (const key of keys) {
      const childNodes = (children.get(key) ?? []).flatMap((c) => conjuncts(c));
      const member: Member = { path: [...path, key], required: required.has(key) };
      const types = allowedTypes(childNodes);
      if (types && types.size > 0 && ALL_TYPES.some((t) => !types.has(t))) member.types = types;
      const values = valuesOf(childNodes);
      if (values) member.values = values;
      out.push(member);
      if (childNodes.length > 0) walk(childNodes, [...path, key]);
    }
    if (items.length > 0)
      walk(
        items.flatMap((i) => conjuncts(i)),
        [...path, '*'],
      );
  };
  walk(conjuncts({ schema: schemaFor(schemaFile), file: schemaFile, refs: [`${schemaFile}#`] }), []);
  return out;
}

const pathText = (path: readonly string[]) => `/${path.join('/')}`;

// Which rows are about a member is read in one place (spec/memberRows.ts), shared with the schema
// judgement (a schema failure cites the rows of the member that failed).
export { memberKeys, namedMembers, textNamesMember } from '../../spec/memberRows.ts';

/** The instance paths of every member of an operation's success answer (empty without a response schema). */
export function memberPathsOf(operationId: string): (readonly string[])[] {
  const op = operations.find((o) => o.id === operationId);
  return op?.responseSchema ? membersOf(op.responseSchema).map((m) => m.path) : [];
}

/** The derived faults of one operation's success answer, in schema order (empty without a response schema). */
export function derivedFaultsOf(operationId: string): DerivedFaultInfo[] {
  const op = operations.find((o) => o.id === operationId);
  if (!op?.responseSchema) return [];
  const schema = op.responseSchema;
  const faults: DerivedFaultInfo[] = [];
  const add = (f: Omit<DerivedFaultInfo, 'name' | 'operations' | 'schema'>) => {
    const name = `${DERIVED_FAULT_PREFIX}${operationId}:${pathText(f.path)}:${f.kind}`;
    if (!faults.some((x) => x.name === name)) faults.push({ name, operations: [operationId], schema, ...f });
  };
  const rows = loadRequirements('server').filter(
    (r) => r.level === 'MUST' && r.notTestedReason === '' && r.operations.includes(operationId),
  );
  const members = membersOf(schema);
  const paths = members.map((m) => m.path);
  for (const m of members) {
    const where = pathText(m.path);
    if (m.required) add({ kind: 'missing', path: m.path, description: `drops the required member ${where}` });
    else if (m.path[m.path.length - 1] !== '*' && rows.some((r) => textNamesMember(r.text, m.path, paths)))
      add({
        kind: 'absent',
        path: m.path,
        description: `drops ${where}, optional in the schema but named by a MUST row`,
      });
    if (m.types) {
      const value = otherTypeValue(m.types);
      if (value !== undefined)
        add({
          kind: 'type',
          path: m.path,
          value,
          description: `gives ${where} (${[...m.types].join('|')}) the value ${JSON.stringify(value)}`,
        });
    }
    if (m.values) {
      const value = unlistedValue(m.values);
      if (value !== undefined)
        add({
          kind: 'unlisted',
          path: m.path,
          value,
          description: `gives ${where} (one of ${m.values.map((v) => JSON.stringify(v)).join(', ')}) the unlisted value ${JSON.stringify(value)}`,
        });
    }
  }
  return faults;
}

/** The derived faults of each operation, computed once per operation and then shared. */
const computed = new Map<string, { list: DerivedFaultInfo[]; byName: Map<string, DerivedFaultInfo> }>();
function cached(operationId: string): { list: DerivedFaultInfo[]; byName: Map<string, DerivedFaultInfo> } {
  let entry = computed.get(operationId);
  if (!entry) {
    const list = operations.some((o) => o.id === operationId) ? derivedFaultsOf(operationId) : [];
    entry = { list, byName: new Map(list.map((f) => [f.name, f])) };
    computed.set(operationId, entry);
  }
  return entry;
}

/** Every derived fault, operation by operation in table order. */
export function derivedFaults(): readonly DerivedFaultInfo[] {
  return operations.flatMap((o) => cached(o.id).list);
}

/** The derived fault of this name; only its operation's faults are computed (a sandbox switching one on). */
export function derivedFaultInfo(name: string): DerivedFaultInfo | undefined {
  if (!name.startsWith(DERIVED_FAULT_PREFIX)) return undefined;
  const operationId = name.slice(DERIVED_FAULT_PREFIX.length, name.indexOf(':', DERIVED_FAULT_PREFIX.length));
  return cached(operationId).byName.get(name);
}

export function isDerivedFault(name: string): boolean {
  return derivedFaultInfo(name) !== undefined;
}

/**
 * Replies each derived fault changed in this process, by name: a fault that never changed a reply
 * broke nothing the suite could see (the sandbox never serves the member), which the power
 * computation (scripts/power.ts) must tell apart from a fault the suite missed.
 */
const hits = new Map<string, number>();
export function derivedFaultHits(): ReadonlyMap<string, number> {
  return hits;
}
export function resetDerivedFaultHits(): void {
  hits.clear();
}

/**
 * The body with the fault's edit applied at every instance of its path (a copy), and how many
 * members changed: an object lacking the member is left as it is.
 */
export function applyDerivedFault(fault: DerivedFaultInfo, body: unknown): { body: unknown; changed: number } {
  let changed = 0;
  const edit = (value: unknown, path: readonly string[]): unknown => {
    const [head, ...rest] = path;
    if (head === undefined) return value;
    if (head === '*') return Array.isArray(value) ? value.map((v) => edit(v, rest)) : value;
    if (!isObject(value) || !Object.hasOwn(value, head)) return value;
    const copy: JsonObject = { ...value };
    if (rest.length > 0) copy[head] = edit(value[head], rest);
    else if (fault.kind === 'missing') {
      delete copy[head];
      changed++;
    } else if (JSON.stringify(value[head]) !== JSON.stringify(fault.value)) {
      copy[head] = fault.value;
      changed++;
    }
    return copy;
  };
  const next = edit(body, fault.path);
  return { body: changed > 0 ? next : body, changed };
}

/** The root `resourceType` the success schema fixes, if any: an answer of another type is not the success answer. */
function successResourceType(schemaFile: string): string | undefined {
  const values = valuesOf(
    conjuncts({ schema: schemaFor(schemaFile), file: schemaFile, refs: [] }).flatMap((n) => {
      const p = n.schema.properties;
      const rt = isObject(p) ? p.resourceType : undefined;
      return isObject(rt) ? conjuncts({ schema: rt, file: n.file, refs: n.refs }) : [];
    }),
  );
  return values?.length === 1 && typeof values[0] === 'string' ? values[0] : undefined;
}

const resourceTypes = new Map<string, string | undefined>();

/**
 * The body of a success answer with the fault applied, or undefined when the fault leaves this
 * answer as it is: not a success (2xx) answer, not of the success schema's `resourceType`, or
 * holding no instance of the member.
 */
export function derivedFaultEdit(fault: DerivedFaultInfo, status: number, body: unknown): unknown {
  if (status < 200 || status > 299) return undefined;
  if (!isObject(body) && !Array.isArray(body)) return undefined;
  if (!resourceTypes.has(fault.schema)) resourceTypes.set(fault.schema, successResourceType(fault.schema));
  const resourceType = resourceTypes.get(fault.schema);
  if (resourceType && isObject(body) && body.resourceType !== resourceType) return undefined;
  const edited = applyDerivedFault(fault, body);
  return edited.changed > 0 ? edited.body : undefined;
}

/** The modifier of one derived fault: edits its operation's success answers only, and marks those it changed. */
export function derivedFaultModifier(fault: DerivedFaultInfo): Modifier {
  return {
    reply: (reply: SandboxReply) => {
      const body = derivedFaultEdit(fault, reply.status, reply.body);
      if (body === undefined) return reply;
      hits.set(fault.name, (hits.get(fault.name) ?? 0) + 1);
      const marked = reply.headers?.[DERIVED_FAULT_HEADER];
      return {
        ...reply,
        body,
        headers: { ...reply.headers, [DERIVED_FAULT_HEADER]: marked ? `${marked}, ${fault.name}` : fault.name },
      };
    },
  };
}
