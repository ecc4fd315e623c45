import { fail, pass, show, type Check } from '../core/check.ts';

/**
 * The response Content-Type names the documented media type (document 2, section 1:
 * `application/fhir+json` for FHIR-style operations, `application/json` for the address,
 * retrieve, geo-coding and validation operations; DEC-D2-26, used at SHOULD). Only the media
 * type before `;` is compared, ignoring letter case and surrounding spaces. Applies only when
 * the response has a body.
 */
export function mediaTypeIs(type: string): Check {
  const wanted = type.trim().toLowerCase();
  return {
    id: 'media-type-is',
    summary: `Response Content-Type is ${wanted}`,
    appliesTo: (x) => x.response.bodyText.trim() !== '',
    run: (x) => {
      const contentType = x.response.headers['content-type'];
      const mediaType = typeof contentType === 'string' ? contentType.split(';')[0].trim().toLowerCase() : undefined;
      if (mediaType === wanted) return pass(`Content-Type ${contentType}`, { contentType });
      return fail(
        `Expected media type ${wanted}, received ${contentType === undefined ? '<none>' : show(contentType)}`,
        { contentType },
      );
    },
  };
}
