/**
 * The config as a form, generated from core/config.schema.json: every setting a field (its
 * description as help text), nested objects as fieldsets, arrays one value per line, a credential
 * (one of several grants) as a choice of grant and the fields of every grant, and the open maps
 * (further search fields, credentials of other names) as lines of `name=value` or as JSON. The
 * form is read back into the same JSON (formToConfig); service/configCheck.ts judges it as it
 * judges a config file.
 */
import { readFileSync } from 'node:fs';
import { html, Raw } from './html.ts';

type Schema = {
  description?: string;
  type?: string;
  enum?: string[];
  const?: string;
  $ref?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
  $defs?: Record<string, Schema>;
};

const SCHEMA = JSON.parse(readFileSync(new URL('../core/config.schema.json', import.meta.url), 'utf8')) as Schema;

/** A setting's field: its JSON pointer in the config, and how its value is written in the form. */
export interface FormField {
  pointer: string;
  /** The form field's name: `cfg:` and the pointer. */
  name: string;
  label: string;
  help: string;
  /**
   * text, integer, number: one value; choice: one of `options`; lines: an array, one value a line;
   * pairs: further string members, `name=value` a line; json: further object members, as JSON.
   */
  kind: 'text' | 'integer' | 'number' | 'choice' | 'lines' | 'pairs' | 'json';
  options?: string[];
}

/** A part of the form: a field, a fieldset of parts, or a credential whose grant chooses its fields. */
export type FormNode =
  | { node: 'field'; field: FormField; key: string }
  | {
      node: 'group';
      pointer: string;
      key: string;
      label: string;
      help: string;
      children: FormNode[];
      /** The members of other names, when the object allows them. */
      rest?: FormField;
    }
  | {
      node: 'variant';
      pointer: string;
      key: string;
      label: string;
      help: string;
      /** The grant's field (`type`): its options are the grants. */
      choice: FormField;
      /** The member names of each grant, `type` first. */
      variants: Record<string, string[]>;
      /** Every member of every grant, once. */
      children: FormNode[];
    };

const escapePointer = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');
const fieldName = (pointer: string): string => `cfg:${pointer}`;

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/\$defs\//, '');
  const target = SCHEMA.$defs?.[name];
  if (!target) throw new Error(`The config schema has no $defs/${name}`);
  // The description where the reference is made says what this use of the definition is.
  return { ...resolve(target), ...(schema.description ? { description: schema.description } : {}) };
}

function leaf(pointer: string, key: string, raw: Schema): FormField {
  const s = resolve(raw);
  const base = { pointer, name: fieldName(pointer), label: key, help: s.description ?? '' };
  if (s.enum) return { ...base, kind: 'choice', options: s.enum.map(String) };
  if (s.const !== undefined) return { ...base, kind: 'choice', options: [String(s.const)] };
  if (s.type === 'array') return { ...base, kind: 'lines' };
  if (s.type === 'integer') return { ...base, kind: 'integer' };
  if (s.type === 'number') return { ...base, kind: 'number' };
  return { ...base, kind: 'text' };
}

function nodeOf(pointer: string, key: string, raw: Schema): FormNode {
  const s = resolve(raw);
  const help = s.description ?? '';
  if (s.oneOf) {
    const variants: Record<string, string[]> = {};
    const children: FormNode[] = [];
    const seen = new Set<string>();
    for (const v of s.oneOf.map(resolve)) {
      const grant = String(v.properties?.type?.const);
      variants[grant] = Object.keys(v.properties ?? {});
      for (const [k, p] of Object.entries(v.properties ?? {})) {
        if (k === 'type' || seen.has(k)) continue;
        seen.add(k);
        children.push(nodeOf(`${pointer}/${escapePointer(k)}`, k, p));
      }
    }
    const choice: FormField = {
      pointer: `${pointer}/type`,
      name: fieldName(`${pointer}/type`),
      label: 'type',
      help: s.oneOf
        .map(resolve)
        .map((v) => `${v.properties?.type?.const}: ${v.description ?? ''}`)
        .join(' '),
      kind: 'choice',
      options: Object.keys(variants),
    };
    return { node: 'variant', pointer, key, label: key, help, choice, variants, children };
  }
  if (s.type === 'object' || s.properties) {
    const children = Object.entries(s.properties ?? {}).map(([k, p]) => nodeOf(`${pointer}/${escapePointer(k)}`, k, p));
    let rest: FormField | undefined;
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      const other = resolve(s.additionalProperties);
      const stringValued = other.type === 'string';
      rest = {
        pointer: `${pointer}/*`,
        name: fieldName(`${pointer}/*`),
        label: children.length > 0 ? 'other members' : 'members',
        help: `${other.description ?? ''} ${stringValued ? 'One name=value a line.' : 'A JSON object of them, by name.'}`.trim(),
        kind: stringValued ? 'pairs' : 'json',
      };
    }
    return { node: 'group', pointer, key, label: key, help, children, ...(rest ? { rest } : {}) };
  }
  return { node: 'field', field: leaf(pointer, key, s), key };
}

/** The whole config as a form (the root group, pointer ''). */
export const CONFIG_FORM: FormNode = nodeOf('', 'config', SCHEMA);

/** Every field of the form, in order (a credential's grant before its members). */
export function fieldsOf(node: FormNode = CONFIG_FORM, into: FormField[] = []): FormField[] {
  if (node.node === 'field') into.push(node.field);
  else {
    if (node.node === 'variant') into.push(node.choice);
    for (const c of node.children) fieldsOf(c, into);
    if (node.node === 'group' && node.rest) into.push(node.rest);
  }
  return into;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The form's values (field name -> text) that show a config. */
export function formValuesOf(config: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  const walk = (node: FormNode, value: unknown): void => {
    if (value === undefined) return;
    if (node.node === 'field') {
      const f = node.field;
      if (f.kind === 'lines' && Array.isArray(value)) values[f.name] = value.map(String).join('\n');
      else values[f.name] = typeof value === 'string' ? value : JSON.stringify(value);
      return;
    }
    if (!isObject(value)) return;
    if (node.node === 'variant' && typeof value.type === 'string') values[node.choice.name] = value.type;
    for (const c of node.children) walk(c, value[c.key]);
    if (node.node === 'group' && node.rest) {
      const known = new Set(node.children.map((c) => c.key));
      const others = Object.entries(value).filter(([k]) => !known.has(k));
      if (others.length > 0)
        values[node.rest.name] =
          node.rest.kind === 'pairs'
            ? others.map(([k, v]) => `${k}=${String(v)}`).join('\n')
            : JSON.stringify(Object.fromEntries(others), null, 2);
    }
  };
  walk(CONFIG_FORM, config);
  return values;
}

/** A problem of a form's value, at the field it belongs to. */
export interface FieldProblem {
  pointer: string;
  line: string;
}

/** What the form's fields hold, as a config; empty fields are absent, an empty fieldset too. */
export function formToConfig(body: Record<string, string | string[] | undefined>): {
  config: JsonObject;
  problems: FieldProblem[];
} {
  const problems: FieldProblem[] = [];
  const text = (name: string): string => {
    const v = body[name];
    return (Array.isArray(v) ? (v.find((x) => x.trim() !== '') ?? '') : (v ?? '')).replace(/\r\n/g, '\n');
  };
  const readField = (f: FormField): Json | undefined => {
    const t = text(f.name);
    if (t.trim() === '') return undefined;
    switch (f.kind) {
      case 'integer':
      case 'number': {
        const n = Number(t.trim());
        if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n))) {
          problems.push({
            pointer: f.pointer,
            line: `Expected ${f.kind === 'integer' ? 'a whole number' : 'a number'} at ${f.pointer}, received ${JSON.stringify(t.trim())}`,
          });
          return undefined;
        }
        return n;
      }
      case 'lines':
        return t
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
      case 'choice':
        if (f.options && !f.options.includes(t)) {
          problems.push({
            pointer: f.pointer,
            line: `Expected one of ${f.options.join(', ')} at ${f.pointer}, received ${JSON.stringify(t)}`,
          });
          return undefined;
        }
        return t;
      default:
        return t;
    }
  };
  const readRest = (f: FormField): [string, Json][] => {
    const t = text(f.name);
    if (t.trim() === '') return [];
    if (f.kind === 'pairs') {
      const pairs: [string, Json][] = [];
      for (const line of t.split('\n')) {
        if (line.trim() === '') continue;
        const at = line.indexOf('=');
        if (at <= 0) {
          problems.push({
            pointer: f.pointer,
            line: `Expected name=value lines at ${f.pointer.replace(/\/\*$/, '')}, received ${JSON.stringify(line.trim())}`,
          });
          continue;
        }
        pairs.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
      }
      return pairs;
    }
    try {
      const v = JSON.parse(t) as unknown;
      if (isObject(v)) return Object.entries(v);
    } catch {
      // reported below
    }
    problems.push({
      pointer: f.pointer,
      line: `Expected a JSON object at ${f.pointer.replace(/\/\*$/, '')}, received text that is not one`,
    });
    return [];
  };
  const build = (node: FormNode): Json | undefined => {
    if (node.node === 'field') return readField(node.field);
    const out: JsonObject = {};
    let members = node.children;
    if (node.node === 'variant') {
      const grant = readField(node.choice);
      const filled = node.children.filter((c) => build(c) !== undefined);
      if (grant === undefined) {
        if (filled.length > 0)
          problems.push({
            pointer: node.choice.pointer,
            line: `Expected a type at ${node.pointer}, received its other fields without one`,
          });
        return undefined;
      }
      out.type = grant;
      const allowed = new Set(node.variants[String(grant)] ?? []);
      members = node.children.filter((c) => allowed.has(c.key));
    }
    for (const c of members) {
      const v = build(c);
      if (v !== undefined) out[c.key] = v;
    }
    if (node.node === 'group' && node.rest) for (const [k, v] of readRest(node.rest)) out[k] = v;
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const config = build(CONFIG_FORM);
  return { config: isObject(config) ? config : {}, problems };
}

/** The field a problem's pointer belongs to: the field itself, or the nearest fieldset holding it. */
export function fieldOfPointer(pointer: string): string {
  const pointers = new Set(fieldsOf().map((f) => f.pointer));
  const groups = new Set<string>();
  const walk = (n: FormNode) => {
    if (n.node !== 'field') {
      groups.add(n.pointer);
      n.children.forEach(walk);
    }
  };
  walk(CONFIG_FORM);
  for (let p = pointer; ; p = p.replace(/\/[^/]*$/, '')) {
    if (pointers.has(p) || groups.has(p)) return p;
    if (p === '') return '';
  }
}

/** The form's HTML: fieldsets and fields with their help and the problems at each, one line each. */
export function renderConfigForm(
  values: Record<string, string>,
  problems: readonly FieldProblem[] = [],
  /** Settings shown but not taken (disabled), with why: pointer -> reason. */
  refused: ReadonlyMap<string, string> = new Map(),
): Raw {
  const at = new Map<string, string[]>();
  for (const p of problems) {
    const key = fieldOfPointer(p.pointer);
    at.set(key, [...(at.get(key) ?? []), p.line]);
  }
  const problemsAt = (pointer: string) =>
    (at.get(pointer) ?? []).map((line) => html`<span class="problem" data-at="${pointer}">${line}</span>`);
  const filled = (n: FormNode): boolean =>
    n.node === 'field'
      ? (values[n.field.name] ?? '') !== '' || at.has(n.field.pointer)
      : at.has(n.pointer) ||
        n.children.some(filled) ||
        (n.node === 'variant' && (values[n.choice.name] ?? '') !== '') ||
        (n.node === 'group' && n.rest !== undefined && (values[n.rest.name] ?? '') !== '');
  const field = (f: FormField): Raw => {
    const v = values[f.name] ?? '';
    const id = `f${f.pointer.replace(/[^A-Za-z0-9]+/g, '-')}`;
    const why = refused.get(f.pointer);
    if (why !== undefined)
      return html`<label class="field refused" for="${id}"><code>${f.label}</code> <input type="text" id="${id}" disabled value="${v}"><small class="help">${f.help} Not taken here: ${why}.</small>${problemsAt(f.pointer)}</label>`;
    const input =
      f.kind === 'choice'
        ? html`<select name="${f.name}" id="${id}"><option value=""${v === '' ? new Raw(' selected') : ''}>(not set)</option>${(f.options ?? []).map((o) => html`<option${o === v ? new Raw(' selected') : ''}>${o}</option>`)}</select>`
        : f.kind === 'lines' || f.kind === 'pairs' || f.kind === 'json'
          ? html`<textarea name="${f.name}" id="${id}" rows="3">${v}</textarea>`
          : html`<input type="${f.kind === 'text' ? 'text' : 'number'}"${f.kind === 'number' ? new Raw(' step="any"') : ''} name="${f.name}" id="${id}" value="${v}">`;
    return html`<label class="field" for="${id}"><code>${f.label}</code> ${input}<small class="help">${f.help}</small>${problemsAt(f.pointer)}</label>`;
  };
  const render = (n: FormNode, depth: number): Raw => {
    if (n.node === 'field') return field(n.field);
    const inner = html`${n.node === 'variant' ? field(n.choice) : ''}${n.children.map((c) => render(c, depth + 1))}${n.node === 'group' && n.rest ? field(n.rest) : ''}`;
    if (depth === 0) return inner;
    return html`<details class="config-group" data-pointer="${n.pointer}"${filled(n) ? new Raw(' open') : ''}><summary><code>${n.label}</code> <small class="help">${n.help}</small></summary>${problemsAt(n.pointer)}<fieldset>${inner}</fieldset></details>`;
  };
  return html`<link rel="stylesheet" href="${CONFIG_FORM_STYLE_PATH}">${render(CONFIG_FORM, 0)}`;
}

/** Where the form's style sheet is served (the pages' Content-Security-Policy allows no inline style). */
export const CONFIG_FORM_STYLE_PATH = '/assets/config-form.css';

/** The form's own layout: help under each field, short text areas, nested fieldsets indented. */
export const CONFIG_FORM_STYLE =
  '.field small.help,summary small.help{display:block;color:#555}.field textarea{height:4.5rem}.config-group fieldset{border:0;border-left:2px solid #ccd;margin:0 0 .6rem .3rem;padding:0 0 0 .8rem}.field.refused input{background:#eee}\n';
