/**
 * Reading request parameters against the operation table (spec/operations.ts): empty values,
 * feature gates, enum values and formats, each refused with the operation's documented error
 * (Document 1, 7; DEC-D1-17, -24, -31; Document 2, 7; DEC-D2-03, -07, -22, -30). Also the
 * parsers of the validated values.
 */
import type { Parameter, ParameterFormat } from '../../spec/types.ts';
import type { Client } from '../repo/model.ts';
import { requireFeatures } from './auth.ts';
import { ApiError } from './errors.ts';
import { isDistance, isNear } from './geo.ts';
import type { SandboxContext } from './types.ts';

type Refusal = { status: number; code: string };

export interface ParameterProfile {
  missing: Refusal;
  /** An empty value is refused, or treated as if the parameter were absent. */
  empty: Refusal | 'absent';
  /** A value outside an enum's list. */
  invalidValue: Refusal;
  badFormat: Refusal;
  /** A malformed value of these formats is refused so instead of `badFormat`. */
  formatRefusals?: Partial<Record<ParameterFormat, Refusal>>;
}

/** Remittance searches (section 7) and, by analogy, Search Authorisation (errors not shown). */
export const SEARCH_PROFILE: ParameterProfile = {
  missing: { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM' },
  empty: { status: 400, code: 'MSG_PARAM_EMPTY' },
  invalidValue: { status: 422, code: 'MSG_PARAM_INVALID' },
  badFormat: { status: 422, code: 'MSG_INVALID_FORMAT' },
};

/** Find Member: no MSG_PARAM_EMPTY, empty is missing (DEC-D1-17); bad content is 422 MSG_PARAM_INVALID. */
export const FIND_MEMBER_PROFILE: ParameterProfile = {
  missing: { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM' },
  empty: 'absent',
  invalidValue: { status: 422, code: 'MSG_PARAM_INVALID' },
  badFormat: { status: 422, code: 'MSG_PARAM_INVALID' },
};

/** Clearing, hospital-claim and bill operations (DEC-D1-13, -31). */
export const CLEARING_PROFILE: ParameterProfile = {
  missing: { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM' },
  empty: 'absent',
  invalidValue: { status: 400, code: 'MSG_INVALID_FORMAT' },
  badFormat: { status: 400, code: 'MSG_INVALID_FORMAT' },
};

/**
 * Code sets, lookups, insurers (4.1-4.5) and the address operations (4.6-4.8): the search
 * parameter is required and an empty one counts as absent (HTTP 400, DEC-D2-07, -31); malformed
 * values (page, count, _since, type) are 400 MSG_INVALID_FORMAT.
 */
export const LOOKUP_PROFILE: ParameterProfile = CLEARING_PROFILE;

/** Code sets: as the lookups, but the only enum is the set name, and an unknown set is no resource. */
export const CODE_SET_PROFILE: ParameterProfile = {
  ...LOOKUP_PROFILE,
  invalidValue: { status: 404, code: 'MSG_NOT_FOUND' },
};

/** Register operations (4.9-4.11, 7; DEC-D2-17, -29, -30). */
export const REGISTER_PROFILE: ParameterProfile = {
  missing: { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM' },
  empty: { status: 400, code: 'MSG_PARAM_EMPTY' },
  invalidValue: { status: 400, code: 'MSG_INVALID_FORMAT' },
  badFormat: { status: 400, code: 'MSG_INVALID_FORMAT' },
};

/** Booking operations (4.12, 4.13, 7): no MSG_PARAM_EMPTY (DEC-D2-30); a bad date is MSG_DATE_FORMAT (DEC-D2-22). */
export const BOOKING_PROFILE: ParameterProfile = {
  missing: { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM' },
  empty: { status: 400, code: 'MSG_INVALID_FORMAT' },
  invalidValue: { status: 400, code: 'MSG_INVALID_FORMAT' },
  badFormat: { status: 400, code: 'MSG_INVALID_FORMAT' },
  formatRefusals: {
    'date-time': { status: 422, code: 'MSG_DATE_FORMAT' },
    date: { status: 422, code: 'MSG_DATE_FORMAT' },
  },
};

/** `page` and `count` as query parameters, for operations that page beyond their table row (DEC-D2-27). */
export const QUERY_PAGING: readonly Parameter[] = [
  { name: 'page', in: 'query', format: 'positive-integer', required: false, description: 'Page index, 1, 2, 3, ...' },
  { name: 'count', in: 'query', format: 'positive-integer', required: false, description: 'Records per page' },
];

export interface ReadOptions {
  operationId: string;
  profile: ParameterProfile;
  /** Form fields or query parameters. */
  source: URLSearchParams;
  path?: Readonly<Record<string, string>>;
  /** When given, feature-gated parameters are checked against the client's features. */
  client?: Client;
  /** Values accepted besides an enum's documented list (DEC-D1-04). */
  extraValues?: Readonly<Record<string, readonly string[]>>;
  /** Alternative names of a parameter (alias -> documented name, DEC-D1-01). */
  aliases?: Readonly<Record<string, string>>;
  /** Parameters read besides the operation's own (appended; an own parameter of the name wins). */
  extraParameters?: readonly Parameter[];
  /** Format tests (and their wording) by parameter name, replacing those of the parameter's format. */
  formats?: Readonly<Record<string, { test: (v: string) => boolean; text: string }>>;
}

/** The validated values of the parameters that are present; absent ones are left out. */
export function readParameters(ctx: SandboxContext, options: ReadOptions): Record<string, string> {
  const { operationId, profile, source } = options;
  const own = ctx.served(operationId).parameters;
  const values: Record<string, string> = {};
  for (const p of [...own, ...(options.extraParameters ?? []).filter((x) => !own.some((o) => o.name === x.name))]) {
    // Headers, JSON bodies and multipart fields are read by their handlers.
    if (p.in === 'header' || p.in === 'body' || p.in === 'multipart') continue;
    let raw = p.in === 'path' ? options.path?.[p.name] : (source.get(p.name) ?? undefined);
    if (raw === undefined && options.aliases) {
      const alias = Object.entries(options.aliases).find(([, name]) => name === p.name)?.[0];
      if (alias !== undefined) raw = source.get(alias) ?? undefined;
    }
    if (raw !== undefined && raw.trim() === '') {
      // An empty path segment is a missing path parameter.
      if (p.in !== 'path' && profile.empty !== 'absent') refuse(profile.empty, `Parameter ${p.name} is empty`);
      raw = undefined;
    }
    if (raw === undefined) {
      if (p.required) refuse(profile.missing, `Parameter ${p.name} is required`);
      continue;
    }
    const value = raw.trim();
    if (options.client) requireFeatures(options.client, p.features, p.name);
    if (p.format === 'enum') {
      const allowed = [...(p.values ?? []), ...(options.extraValues?.[p.name] ?? [])];
      if (!allowed.includes(value))
        refuse(profile.invalidValue, `Parameter ${p.name} must be one of ${allowed.join(', ')}, received ${value}`);
    } else {
      const format = options.formats?.[p.name] ?? { test: FORMATS[p.format], text: FORMAT_TEXT[p.format] };
      if (!format.test(value)) {
        refuse(
          profile.formatRefusals?.[p.format] ?? profile.badFormat,
          `Parameter ${p.name} must be ${format.text}, received ${value}`,
        );
      }
    }
    values[p.name] = value;
  }
  return values;
}

/** The items every present filter parameter accepts (parameters without a filter do not restrict). */
export function applyFilters<T>(
  items: readonly T[],
  filters: Readonly<Record<string, (item: T, value: string) => boolean>>,
  values: Readonly<Record<string, string>>,
): T[] {
  const active = Object.entries(values).filter(([name]) => filters[name] !== undefined);
  return items.filter((item) => active.every(([name, v]) => filters[name](item, v)));
}

function refuse(r: Refusal, diagnostics: string): never {
  throw new ApiError(r.status, r.code, diagnostics);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const COMPARATOR = /^(le|ge|eq)(\d+(?:\.\d{1,2})?)$/;

export function isDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

const isMinute = (v: string) =>
  MINUTE.test(v) && isDate(v.slice(0, 10)) && Number(v.slice(11, 13)) < 24 && Number(v.slice(14, 16)) < 60;

/** Whether a value has the parameter format's documented form. */
export const FORMATS: Readonly<Record<ParameterFormat, (v: string) => boolean>> = {
  string: () => true,
  enum: () => true,
  date: isDate,
  'date-range': (v) => {
    const parts = v.split('_');
    return parts.length === 2 && parts.every(isDate);
  },
  'datetime-range': (v) => {
    const parts = v.split('_');
    return parts.length <= 2 && parts.every(isMinute);
  },
  'date-time': (v) => DATE_TIME.test(v) && isDate(v.slice(0, 10)) && !Number.isNaN(instantOf(v)),
  'comparator-decimal': (v) => COMPARATOR.test(v),
  boolean: (v) => v === 'true' || v === 'false',
  'positive-integer': (v) => /^[1-9]\d{0,8}$/.test(v),
  near: isNear,
  distance: isDistance,
};

const FORMAT_TEXT: Record<ParameterFormat, string> = {
  string: 'text',
  enum: 'one of the listed values',
  date: 'a date YYYY-MM-DD',
  'date-range': 'a date range YYYY-MM-DD_YYYY-MM-DD',
  'datetime-range': 'YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM_YYYY-MM-DDTHH:MM',
  'date-time': 'a date-time YYYY-MM-DDTHH:MM:SS with an optional offset',
  'comparator-decimal': 'le, ge or eq followed by a decimal with up to two places',
  boolean: 'true or false',
  'positive-integer': 'a positive integer',
  near: 'lat:lon[:distance[:units]] with units km, mi or m',
  distance: 'a non-negative decimal, optionally followed by km, mi or m',
};

/** Milliseconds of a date or date-time; without an offset the value is read as UTC. */
export function instantOf(v: string): number {
  const withTime = v.length === 10 ? `${v}T00:00:00` : v;
  const withOffset = /(Z|[+-]\d{2}:\d{2})$/.test(withTime) ? withTime : `${withTime}Z`;
  return Date.parse(withOffset);
}

/** Inclusive date range `YYYY-MM-DD_YYYY-MM-DD` as a predicate on a date (YYYY-MM-DD prefix). */
export function dateRange(v: string): (date: string) => boolean {
  const [from, to] = v.split('_');
  return (date) => date.slice(0, 10) >= from && date.slice(0, 10) <= to;
}

/** Minute or minute range, inclusive at both ends; a single value means that minute (DEC-D1-23). */
export function minuteRange(v: string): (dateTime: string) => boolean {
  const [from, to = from] = v.split('_');
  const start = instantOf(`${from}:00`);
  const end = instantOf(`${to}:00`) + 60_000;
  return (dateTime) => {
    const t = instantOf(dateTime);
    return t >= start && t < end;
  };
}

/** `le`, `ge`, `eq` followed by a decimal, as a predicate on an amount (DEC-D1-24). */
export function comparator(v: string): (amount: number) => boolean {
  const m = COMPARATOR.exec(v);
  if (!m) throw new Error(`not a comparator: ${v}`);
  const limit = Math.round(Number(m[2]) * 100);
  return (amount) => {
    const a = Math.round(amount * 100);
    return m[1] === 'le' ? a <= limit : m[1] === 'ge' ? a >= limit : a === limit;
  };
}

/** Records last updated at or after `_since` (DEC-D1-27). */
export function since(v: string): (lastUpdated: string) => boolean {
  const t = instantOf(v);
  return (lastUpdated) => instantOf(lastUpdated) >= t;
}

/** Case-insensitive text comparisons. */
export const sameText = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
export const containsText = (haystack: string, needle: string): boolean =>
  haystack.toLowerCase().includes(needle.trim().toLowerCase());
