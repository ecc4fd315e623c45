import { describe, expect, test } from 'vitest';
import { locationMatchesText, practitionerMatchesText } from './lookupText.ts';

describe('practitionerMatchesText', () => {
  const smith = { name: [{ family: 'Smíth', given: ['John', 'Edward'], prefix: ['Mr'] }] };

  test('passes a name holding each word of the text, letter case and accents folded', () => {
    for (const text of ['Smith', 'smi', 'SMITH', 'Smíth', 'John Smith', 'smith john', 'Edw'])
      expect(practitionerMatchesText(smith, text), text).toBe(true);
    expect(practitionerMatchesText({ name: [{ text: 'Dr Naomi Goldsmith' }] }, 'smith')).toBe(true);
  });

  test('fails a name the text is not in, and does not judge a record without a name', () => {
    expect(practitionerMatchesText({ name: [{ family: 'Patel', given: ['Rajesh'] }] }, 'Smith')).toBe(false);
    expect(practitionerMatchesText(smith, 'John Patel')).toBe(false);
    expect(practitionerMatchesText({ id: 'PR-1' }, 'Smith')).toBeUndefined();
  });
});

describe('locationMatchesText', () => {
  const rooms = {
    name: 'Central London Consulting Rooms',
    address: { line: ['2 Craven Street', 'London'], postalCode: 'WC2N 5NF' },
  };

  test('passes a name or an address holding the text, a postcode also without spaces', () => {
    for (const text of ['london', 'Consulting', 'Craven', 'WC2N 5NF', 'wc2n5nf', 'WC2N'])
      expect(locationMatchesText(rooms, text), text).toBe(true);
    expect(locationMatchesText({ name: 'Clinique Élysée' }, 'elysee')).toBe(true);
  });

  test('fails a location the text is nowhere in, and does not judge one without name or address', () => {
    expect(
      locationMatchesText(
        { name: 'Richmond Physiotherapy', address: { line: ['3 Hill Street', 'Richmond'], postalCode: 'TW9 1SX' } },
        'London',
      ),
    ).toBe(false);
    expect(locationMatchesText({ id: 'LOC-1' }, 'London')).toBeUndefined();
  });
});
