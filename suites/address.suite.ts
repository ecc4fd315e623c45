/**
 * Address, retrieve-address, geo-coding and postcode validation (Document 2, 2.3, 4.6-4.8, 7):
 * the drill-down flow to an `Address` item, retrieval by key with `|` sent as `%7C`, geo-coding,
 * and validation that answers `status` false (never an error) for an invalid postcode.
 */
import { on } from '../core/suite.ts';
import { PRECONDITION } from '../core/decidedOutcomes.ts';
import { test } from 'vitest';
import {
  addressKeyMatches,
  arrayHasItem,
  arrayLengthIs,
  membersPresent,
  geocodePositionValid,
  mediaTypeIs,
  notServerError,
  postcodeValidationAnswer,
  requestRefused,
  statusIs,
} from '../checks/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { bodyOf, hasResponse, isRecord } from '../core/exchange.ts';
import { call, describeOperation, runContext } from '../core/suite.ts';
import { verifySuccess } from './common/steps.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';

const SEARCH = 'search-address';
const RETRIEVE = 'retrieve-address';
const GEO = 'geocode-postcode';
const VALIDATE = 'validate-postcode';
const R = {
  search: ['D2-4.6-01', 'D2-4.6-02', 'D2-2.3-24', 'D2-2.3-25', 'D2-1-04', 'D2-1-09'],
  drill: ['D2-4.6-03'],
  retrieve: ['D2-4.7-01', 'D2-4.7-03', 'D2-2.3-26', 'D2-2.3-27', 'D2-2.3-28'],
  pipe: ['D2-4.7-02'],
  geo: ['D2-4.8-01', 'D2-4.8-02', 'D2-4.8-03'],
  validate: ['D2-4.8-05', 'D2-4.8-06', 'D2-4.8-08'],
  invalid: ['D2-4.8-07'],
  missing: { search: ['D2-7-05'], retrieve: ['D2-7-06'], geo: ['D2-7-07'], validate: ['D2-7-08'] },
  auth: ['D2-5-02'],
  media: ['D2-1-11'],
};
const isAddress = (item: unknown) => isRecord(item) && item.addressType === 'Address';

/** The keys of an address search answer's items, in order, as one text (to see whether a step changed them). */
const itemKeys = (x: Exchange): string =>
  (Array.isArray(bodyOf(x)) ? (bodyOf(x) as unknown[]) : []).map((i) => (isRecord(i) ? String(i.key) : '')).join('\n');

/**
 * Search, then drill into the first non-Address item until an Address item appears (DEC-D2-12).
 * `containerIgnored`: a step with `container` answered the very items of the step before, so the
 * target does not drill on that name (the documents name no parameter).
 */
async function drillDown(
  text: string,
): Promise<{ last: Exchange; address?: Record<string, unknown>; containerIgnored?: boolean }> {
  let last = await call(SEARCH, { query: { text } });
  for (let step = 0; step < 5; step++) {
    if (!verifySuccess(last, SEARCH, { success: R.search, schema: R.search }, { status: 200 })) return { last };
    const items = Array.isArray(bodyOf(last)) ? (bodyOf(last) as unknown[]) : [];
    const found = items.find(isAddress);
    if (found) return { last, address: found as Record<string, unknown> };
    const container = items.find((i) => isRecord(i) && typeof i.key === 'string') as
      | Record<string, unknown>
      | undefined;
    if (!container) return { last };
    const before = itemKeys(last);
    last = await call(SEARCH, { query: { text, container: String(container.key) } });
    if (hasResponse(last) && last.response.status === 200 && itemKeys(last) === before)
      return { last, containerIgnored: true };
  }
  return { last };
}

describeOperation(SEARCH, () => {
  on(SEARCH).test(
    'drilling down reaches an item of type Address',
    { fixtures: ['address.searchText'], cites: [...R.drill] },
    async ([text]) => {
      const { last, containerIgnored } = await drillDown(text);
      // A target that answers a `container` step with the same items drills on another parameter,
      // which the documents do not name (DEC-D2-12): the Address item it did not reach is a warning.
      (containerIgnored ? on(SEARCH).should(...R.drill) : on(SEARCH).must(...R.drill))
        .under('DEC-D2-11', 'DEC-D2-12')
        .check(
          last,
          arrayHasItem('an item of type Address', isAddress),
          containerIgnored ? { containerIgnored } : undefined,
        );
      on(SEARCH)
        .should(...R.media)
        .under('DEC-D2-26')
        .check(last, mediaTypeIs('application/json'));
    },
  );

  test('without text the answer is HTTP 400; without a token the request is refused', async () => {
    on(SEARCH)
      .must(...R.missing.search)
      .under('DEC-D2-07')
      .check(await call(SEARCH, { query: {} }), statusIs(400));
    on(SEARCH)
      .must(...R.auth)
      .check(await call(SEARCH, { query: { text: 'x' }, omitHeaders: ['Authorization'] }), requestRefused);
    // D2 5, DEC-D2-61: an unknown token is refused as no token is.
    on(SEARCH)
      .must(...R.auth)
      .under('DEC-D2-61')
      .check(
        await call(SEARCH, { query: { text: 'x' }, headers: { Authorization: 'Bearer not-a-known-token-0000' } }),
        requestRefused,
        { token: 'unknown' },
      );
  });
});

describeOperation(RETRIEVE, () => {
  on(RETRIEVE).test(
    'the Address item is retrieved by its key, | sent as %7C',
    { fixtures: ['address.searchText'], cites: [...R.retrieve] },
    async ([text]) => {
      const { address } = await drillDown(text);
      if (!address || typeof address.key !== 'string') {
        return on(RETRIEVE)
          .must(...R.retrieve)
          .decided(PRECONDITION, 'skip', 'The drill-down did not reach an Address item (judged under search-address)');
      }
      const x = await call(RETRIEVE, { query: { id: address.key } });
      if (!verifySuccess(x, RETRIEVE, { success: R.retrieve, schema: R.retrieve }, { status: 200 })) return;
      on(RETRIEVE)
        .must(...R.retrieve, ...(address.key.includes('|') ? R.pipe : []))
        .under('DEC-D2-13')
        .check(x, addressKeyMatches(address.key), { url: x.request.url });
      on(RETRIEVE).should('D2-4.7-04').under('DEC-D2-50').check(x, arrayLengthIs(1));
      const named = [
        'key',
        'line1',
        'line2',
        'line3',
        'line4',
        'buildingName',
        'street',
        'provinceName',
        'postcode',
        'city',
        'district',
        'country',
        'countryCode3',
        'addressType',
        'formattedAddress',
        'latitude',
        'longitude',
      ];
      on(RETRIEVE)
        .should('D2-2.3-30')
        .under('DEC-D2-42')
        .check(x, membersPresent(named.map((m) => `[].${m}`)));
      const key = address.key;
      on(RETRIEVE)
        .should('D2-2.3-29')
        .check(
          x,
          arrayHasItem(
            `with key ${key} whose formattedAddress holds a line break`,
            (i) => i.key === key && typeof i.formattedAddress === 'string' && /\r?\n/.test(i.formattedAddress),
          ),
        );
    },
  );

  test('without id the answer is HTTP 400', async () => {
    on(RETRIEVE)
      .must(...R.missing.retrieve)
      .under('DEC-D2-07')
      .check(await call(RETRIEVE, { query: {} }), statusIs(400));
  });

  test('an unknown id is not a server error', async () => {
    on(RETRIEVE)
      .must('D2-4.7-05')
      .under('DEC-D2-50')
      .check(await call(RETRIEVE, { query: { id: 'GB|RM|NO-SUCH-ADDRESS-000' } }), notServerError);
  });
});

describeOperation(GEO, () => {
  on(GEO).test(
    'a postcode is geo-coded to a position',
    { fixtures: ['address.postcode'], cites: [...R.geo] },
    async ([postcode]) => {
      const x = await call(GEO, { query: { postcode } });
      if (!verifySuccess(x, GEO, { success: R.geo, schema: R.geo }, { status: 200 })) return;
      on(GEO)
        .must(...R.geo)
        .under('DEC-D2-15')
        .check(x, geocodePositionValid);
    },
  );

  test('without postcode the answer is HTTP 400', async () => {
    on(GEO)
      .must(...R.missing.geo)
      .under('DEC-D2-07')
      .check(await call(GEO, { query: {} }), statusIs(400));
    on(GEO)
      .must('D2-4.8-04')
      .under('DEC-D2-51')
      .check(
        await call(GEO, { query: { postcode: runContext().fixtures.address?.invalidPostcode ?? 'NOT A POSTCODE' } }),
        notServerError,
      );
  });
});

describeOperation(VALIDATE, () => {
  test('a valid postcode has status true; an invalid one status false, never an error', async () => {
    const { postcode, invalidPostcode } = runContext().fixtures.address ?? {};
    if (postcode) {
      const x = await call(VALIDATE, { query: { postcode } });
      if (verifySuccess(x, VALIDATE, { success: R.validate, schema: R.validate }, { status: 200 })) {
        on(VALIDATE)
          .must(...R.validate)
          .under('DEC-D2-15')
          .check(x, postcodeValidationAnswer({ postcode, valid: true }));
      }
    }
    const bad = invalidPostcode ?? 'NOT A POSTCODE';
    const x = await call(VALIDATE, { query: { postcode: bad } });
    if (
      verifySuccess(x, VALIDATE, { success: R.invalid, schema: R.validate }, { status: 200, decisions: ['DEC-D2-15'] })
    ) {
      on(VALIDATE)
        .must(...R.invalid)
        .under('DEC-D2-15')
        .check(x, postcodeValidationAnswer({ postcode: bad, valid: false }));
    }
  });

  test('without postcode the answer is HTTP 400', async () => {
    on(VALIDATE)
      .must(...R.missing.validate)
      .under('DEC-D2-07')
      .check(await call(VALIDATE, { query: {} }), statusIs(400));
  });
});

describeDerivedRequests({
  [SEARCH]: { fixtures: fixturesFrom({ text: runContext().fixtures.address?.searchText }) },
  [RETRIEVE]: {},
  [GEO]: { fixtures: fixturesFrom({ postcode: runContext().fixtures.address?.postcode }) },
  [VALIDATE]: { fixtures: fixturesFrom({ postcode: runContext().fixtures.address?.postcode }) },
});
