/**
 * Address search, retrieval, geo-coding and postcode validation (Document 2, 2.3, 4.6-4.8, 7;
 * DEC-D2-07, -11..15): plain JSON. Search finds top-level items by text, or with `container` the
 * items under that key (drill-down); only Address items can be retrieved (others give `[]`);
 * validation answers 200 with `status` false for an invalid postcode.
 */
import type { AddressItem } from '../repo/model.ts';
import { addressItemOf, retrievedAddressOf } from '../resources/address.ts';
import { authorise } from './auth.ts';
import { ApiError } from './errors.ts';
import { LOOKUP_PROFILE, readParameters } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const SEARCH_OP = 'search-address';
const RETRIEVE_OP = 'retrieve-address';
const GEOCODE_OP = 'geocode-postcode';
const VALIDATE_OP = 'validate-postcode';

/** UK postcode shape: outward code, optional space, inward code. */
const UK_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$/i;

const words = (v: string) => v.trim().replace(/\s+/g, ' ').toLowerCase();
const compact = (v: string) => v.replace(/\s+/g, '').toUpperCase();

export async function searchAddress(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, SEARCH_OP);
  const { text, container } = readParameters(ctx, {
    operationId: SEARCH_OP,
    profile: LOOKUP_PROFILE,
    source: req.query,
  });
  const items = await ctx.repo.addressItems();
  const found: readonly AddressItem[] =
    container !== undefined
      ? items.filter((i) => i.containers?.includes(container))
      : items.filter((i) => i.containers === undefined && words(i.formattedAddress).includes(words(text)));
  return ok(found.map(addressItemOf));
}

export async function retrieveAddress(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, RETRIEVE_OP);
  const { id } = readParameters(ctx, { operationId: RETRIEVE_OP, profile: LOOKUP_PROFILE, source: req.query });
  const addresses = (await ctx.repo.addressItems()).filter(
    (i) => i.addressType === 'Address' && i.address !== undefined,
  );
  const item = addresses.find((i) => i.key === id);
  return ok(item?.address ? [retrievedAddressOf(item.key, item.formattedAddress, item.address)] : []);
}

export async function geocodePostcode(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, GEOCODE_OP);
  const { postcode } = readParameters(ctx, { operationId: GEOCODE_OP, profile: LOOKUP_PROFILE, source: req.query });
  const known = (await ctx.repo.postcodes()).find((p) => compact(p.postcode) === compact(postcode));
  if (!known) throw new ApiError(404, 'MSG_NOT_FOUND', `No geo-coding for postcode ${postcode}`);
  return ok({ formattedAddress: known.formattedAddress, latitude: known.latitude, longitude: known.longitude });
}

export async function validatePostcode(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, VALIDATE_OP);
  const { postcode } = readParameters(ctx, { operationId: VALIDATE_OP, profile: LOOKUP_PROFILE, source: req.query });
  const valid =
    UK_POSTCODE.test(postcode) && (await ctx.repo.postcodes()).some((p) => compact(p.postcode) === compact(postcode));
  return ok({ postcode, status: valid });
}
