import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { describe, readObject } from './readJson.ts';

/** A character outside the RFC 4648 base64 alphabet and `=` (base64url's `-` and `_` included). */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/** Leading bytes of each image type judged; other types are judged on size only. */
const SIGNATURES: Record<string, readonly (readonly number[])[]> = {
  'image/png': [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/gif': [
    [0x47, 0x49, 0x46, 0x38, 0x37, 0x61],
    [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  ],
};

/**
 * Decodes strict base64. ASCII whitespace between characters is dropped first (FHIR's
 * base64Binary allows it, e.g. line-wrapped output); any other character outside the alphabet,
 * a length that is not a multiple of 4 or misplaced padding is refused.
 */
export function decodeBase64Strict(text: string): Buffer | undefined {
  const compact = text.replace(/[ \t\r\n]/g, '');
  // Checked without a repeating pattern: a regex over megabytes of photo data overflows the stack.
  if (compact.length % 4 !== 0 || NOT_BASE64.test(compact)) return undefined;
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const firstPad = compact.indexOf('=');
  if (firstPad !== -1 && firstPad < compact.length - padding) return undefined;
  return Buffer.from(compact, 'base64');
}

function judgeAttachment(attachment: unknown): { problem?: string; bytes?: number; contentType?: unknown } {
  if (!isRecord(attachment))
    return { problem: `valueAttachment ${attachment === undefined ? '<absent>' : describe(attachment)}` };
  const { data, size, contentType } = attachment;
  if (typeof data !== 'string') return { problem: `data ${show(data, 40)}`, contentType };
  if (!Number.isSafeInteger(size) || (size as number) < 0) return { problem: `size ${show(size, 40)}`, contentType };
  const bytes = decodeBase64Strict(data);
  if (bytes === undefined)
    return { problem: `data that is not strict base64: ${show(data.slice(0, 40), 50)}`, contentType };
  if (bytes.length !== size)
    return { problem: `${bytes.length} decoded bytes for size ${size as number}`, bytes: bytes.length, contentType };
  const mediaType = typeof contentType === 'string' ? contentType.split(';')[0].trim().toLowerCase() : undefined;
  const signatures = mediaType === undefined ? undefined : SIGNATURES[mediaType];
  if (signatures !== undefined && !signatures.some((sig) => sig.every((byte, i) => bytes[i] === byte))) {
    const lead = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    return {
      problem: `data starting ${lead === '' ? '<no bytes>' : lead} for contentType ${show(contentType, 40)}`,
      bytes: bytes.length,
      contentType,
    };
  }
  return { bytes: bytes.length, contentType };
}

/**
 * The profile photo's bytes agree with its description (document 2, 2.3 and 4.10; DEC-D2-25):
 * in a Parameters resource, every `photo` parameter's `valueAttachment.data` is strict base64
 * that decodes to exactly `size` bytes, whose leading bytes are the signature of `contentType`
 * for `image/png`, `image/jpeg` and `image/gif` (other types: size only).
 */
export const photoDataMatchesSize: Check = {
  id: 'photo-data-matches-size',
  summary: 'The photo data is strict base64 of size bytes matching its contentType',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    if (body.value.resourceType !== undefined && body.value.resourceType !== 'Parameters') {
      return fail(`Expected a Parameters resource, received ${describe(body.value)}`);
    }
    const photos = Array.isArray(body.value.parameter)
      ? body.value.parameter.filter((p) => isRecord(p) && p.name === 'photo')
      : [];
    if (photos.length === 0)
      return fail(
        `Expected a parameter named photo, received ${Array.isArray(body.value.parameter) ? 'none' : `parameter ${show(body.value.parameter, 40)}`}`,
      );
    const judged = photos.map((p) => judgeAttachment((p as Record<string, unknown>).valueAttachment));
    const evidence = { photos: judged.map(({ bytes, contentType }) => ({ bytes, contentType })) };
    const bad = judged.findIndex((j) => j.problem !== undefined);
    if (bad >= 0) {
      const which = photos.length > 1 ? ` (photo ${bad + 1} of ${photos.length})` : '';
      return fail(
        `Expected valueAttachment data of size bytes matching contentType, received ${judged[bad].problem}${which}`,
        evidence,
      );
    }
    const first = judged[0];
    return pass(
      `${first.bytes} bytes of ${typeof first.contentType === 'string' ? first.contentType : 'unstated type'}${photos.length > 1 ? ` (${photos.length} photos)` : ''}`,
      evidence,
    );
  },
};
