import { describe, expect, it } from 'vitest';
import { bundleView } from './readJson.ts';
import { referenceId, roleEntries, roleReferences } from './roleReferences.ts';
import { bundle } from './testing.ts';

describe('referenceId', () => {
  it('reads relative, absolute and versioned references', () => {
    expect(referenceId('Location/7', 'Location')).toBe('7');
    expect(referenceId('https://host/fhir/Location/l-7', 'Location')).toBe('l-7');
    expect(referenceId('Location/7/_history/2', 'Location')).toBe('7');
  });

  it('refuses other types, empty ids and non-strings', () => {
    for (const ref of [
      'Practitioner/7',
      'MyLocation/7',
      'Location/',
      'Location',
      'Location/7/extra',
      7,
      null,
      undefined,
    ]) {
      expect(referenceId(ref, 'Location')).toBeUndefined();
    }
  });
});

describe('roleReferences', () => {
  it('gives normalised, distinct references of one field', () => {
    const role = {
      practitioner: { reference: 'https://x/Practitioner/p1' },
      location: [
        { reference: 'Location/l1' },
        { reference: 'https://x/Location/l1' },
        { reference: 'weird' },
        { display: 'no ref' },
        null,
        { reference: '' },
      ],
    };
    expect(roleReferences(role, 'practitioner')).toEqual(['Practitioner/p1']);
    expect(roleReferences(role, 'location')).toEqual(['Location/l1', 'weird']);
  });

  it('gives nothing for odd shapes', () => {
    expect(roleReferences(null, 'practitioner')).toEqual([]);
    expect(
      roleReferences({ practitioner: 'Practitioner/p1', location: { reference: 'Location/l1' } }, 'practitioner'),
    ).toEqual([]);
    expect(roleReferences({ location: { reference: 'Location/l1' } }, 'location')).toEqual([]);
  });
});

describe('roleEntries', () => {
  it('keeps PractitionerRole entries with their position', () => {
    const view = bundleView(
      bundle([
        { resourceType: 'Practitioner', id: 'p' },
        { resourceType: 'PractitionerRole', id: 'r' },
      ]),
    );
    expect(view.ok && roleEntries(view.value).map((r) => [r.resource.id, r.index])).toEqual([['r', 1]]);
  });
});
