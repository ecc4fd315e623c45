/**
 * HTTP freedoms a real server uses (RFC 9110): content negotiation, content coding, transient refusals, short pages (issue 30, items 2 and 7).
 */
import type { Variant } from './types.ts';

export const HTTP_FREEDOM_VARIANTS: readonly Variant[] = [];
