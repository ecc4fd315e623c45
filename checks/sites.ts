/** Reading the authorised-sites lists (document 3, 2.2 Site, 4.1 v1 and v2) for checks. */
import { fail } from '../core/check.ts';
import { isRecord, type RespondedExchange } from '../core/exchange.ts';
import { describe, readJson, type Read } from './readJson.ts';

/** A site's `id` as text (a string or a finite number), or undefined. */
export function siteIdOf(site: unknown): string | undefined {
  if (!isRecord(site)) return undefined;
  if (typeof site.id === 'string' && site.id !== '') return site.id;
  return typeof site.id === 'number' && Number.isFinite(site.id) ? String(site.id) : undefined;
}

/** The listed sites: `sites[]` of a v2 page, or the bare array v1 answers. */
export function readSites(x: RespondedExchange): Read<{ sites: unknown[]; pagination: unknown }> {
  const json = readJson(x);
  if (!json.ok) return json;
  const value = json.value;
  if (Array.isArray(value)) return { ok: true, value: { sites: value, pagination: undefined } };
  if (isRecord(value) && Array.isArray(value.sites))
    return { ok: true, value: { sites: value.sites, pagination: value.pagination } };
  const received = isRecord(value) ? `sites ${describe(value.sites)}` : describe(value);
  return { ok: false, finding: fail(`Expected a sites array, received ${received}`) };
}
