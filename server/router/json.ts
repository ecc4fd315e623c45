/**
 * Reading JSON of unknown shape without `any`: narrow by meaning (an object, a list, a non-empty
 * text) and read members as `unknown` until a check says what they are.
 */
export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string with something other than white space in it. */
export const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The value when it is an array, else an empty list. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The objects of a list (anything else is left out). */
export const objects = (v: unknown): JsonObject[] => arr(v).filter(isObject);
