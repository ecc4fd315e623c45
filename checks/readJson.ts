/**
 * Reading a response body for checks. Each reader returns the value or the finding to return:
 * a `skip` when the suite cut the body at its size cap (nothing to judge), a `fail` when the
 * target sent something that is not what the check needs.
 */
import { fail, show, skip, type Finding } from '../core/check.ts';
import { isRecord, parseJson, type RespondedExchange } from '../core/exchange.ts';

export type Read<T> = { ok: true; value: T } | { ok: false; finding: Finding };

export interface BundleView {
  body: Record<string, unknown>;
  /** `entry[]` as sent (possibly holding entries without a resource). */
  entries: unknown[];
  /** The `resource` of every entry that has one. */
  resources: Record<string, unknown>[];
}

/** Short description of a JSON value for `received ...`. */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (isRecord(value)) {
    return typeof value.resourceType === 'string'
      ? `resourceType ${show(value.resourceType, 40)}`
      : 'an object without resourceType';
  }
  return show(value, 60);
}

/** The first 60 characters of the body, quoted, single line. */
export function bodyStart(x: RespondedExchange): string {
  return show(x.response.bodyText.slice(0, 60), 80);
}

export function readJson(x: RespondedExchange): Read<unknown> {
  if (x.response.truncated) return { ok: false, finding: skip('Body truncated at the size cap, cannot judge it') };
  if (x.response.bodyText.trim() === '')
    return { ok: false, finding: fail('Expected a JSON body, received an empty body') };
  const parsed = parseJson(x);
  if (!parsed.ok) return { ok: false, finding: fail(`Expected a JSON body, received ${bodyStart(x)}`) };
  return { ok: true, value: parsed.value };
}

export function readObject(x: RespondedExchange): Read<Record<string, unknown>> {
  const json = readJson(x);
  if (!json.ok) return json;
  if (!isRecord(json.value))
    return { ok: false, finding: fail(`Expected a JSON object, received ${describe(json.value)}`) };
  return { ok: true, value: json.value };
}

/** A Bundle: `resourceType` Bundle, or no `resourceType` and an `entry` array. */
export function isBundle(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    (value.resourceType === 'Bundle' || (value.resourceType === undefined && Array.isArray(value.entry)))
  );
}

export function bundleView(body: Record<string, unknown>): Read<BundleView> {
  // An empty Bundle may omit `entry` altogether (FHIR style).
  if (body.entry === undefined) return { ok: true, value: { body, entries: [], resources: [] } };
  if (!Array.isArray(body.entry)) {
    return { ok: false, finding: fail(`Expected Bundle.entry to be an array, received ${describe(body.entry)}`) };
  }
  const entries: unknown[] = body.entry;
  const resources = entries
    .map((e) => (isRecord(e) && isRecord(e.resource) ? e.resource : undefined))
    .filter((r): r is Record<string, unknown> => r !== undefined);
  return { ok: true, value: { body, entries, resources } };
}

export function readBundle(x: RespondedExchange): Read<BundleView> {
  const object = readObject(x);
  if (!object.ok) return object;
  if (!isBundle(object.value))
    return { ok: false, finding: fail(`Expected a Bundle, received ${describe(object.value)}`) };
  return bundleView(object.value);
}

/** Resources of a bundle, keeping only `resourceType` when given. */
export function resourcesOfType(
  resources: readonly Record<string, unknown>[],
  resourceType: string | undefined,
): Record<string, unknown>[] {
  return resourceType === undefined ? [...resources] : resources.filter((r) => r.resourceType === resourceType);
}

/** The resources of a Bundle's entries, or the body itself when it is one resource; of one resourceType when given. */
export function resourcesOfBody(
  body: Record<string, unknown>,
  resourceType: string | undefined,
): Read<Record<string, unknown>[]> {
  if (!isBundle(body)) return { ok: true, value: resourcesOfType([body], resourceType) };
  const view = bundleView(body);
  return view.ok ? { ok: true, value: resourcesOfType(view.value.resources, resourceType) } : view;
}

/** The `received ...` part of a failure message, to restate it in another check's terms. */
export function receivedPart(finding: Finding): string {
  const at = finding.message.indexOf(', received ');
  return at >= 0 ? finding.message.slice(at + ', received '.length) : finding.message;
}
