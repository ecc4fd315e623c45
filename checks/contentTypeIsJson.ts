import { fail, pass, show, type Check } from '../core/check.ts';

/** `application/json`, `application/fhir+json`, any `application/*+json`; parameters allowed. */
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/;

/**
 * The response Content-Type is a JSON media type (document 1, section 1 "Conventions: payloads
 * are JSON"). Applies only when the response has a body.
 */
export const contentTypeIsJson: Check = {
  id: 'content-type-is-json',
  summary: 'Response Content-Type is a JSON media type',
  appliesTo: (x) => x.response.bodyText.trim() !== '',
  run: (x) => {
    const contentType = x.response.headers['content-type'];
    const mediaType = typeof contentType === 'string' ? contentType.split(';')[0].trim().toLowerCase() : '';
    return JSON_MEDIA_TYPE.test(mediaType)
      ? pass(`Content-Type ${contentType}`, { contentType })
      : fail(`Expected a JSON media type, received ${contentType === undefined ? '<none>' : show(contentType)}`, {
          contentType,
        });
  },
};
