import { describe, expect, it } from 'vitest';
import { pointerPath, rowsAboutMember } from './memberRows.ts';

describe('rowsAboutMember', () => {
  it('reads a JSON pointer as member path segments', () => {
    expect(pointerPath('/entry/0/resource/a~1b')).toEqual(['entry', '*', 'resource', 'a/b']);
  });

  it('finds the rows naming a member, or its nearest named parent', () => {
    expect(rowsAboutMember('get-code-set', '/expansion/contains/0/display', 'MUST')).toEqual(['D2-2.2-04']);
    expect(rowsAboutMember('search-authorisation', '/meta/tag/0/display', 'MUST')).toEqual(['D1-2.1-04']);
    expect(rowsAboutMember('create-patient', '/name/0/given', 'MUST')).toEqual(['D3-2.4-05']);
  });

  it('names nothing for a member no row of the operation names', () => {
    expect(rowsAboutMember('get-code-set', '/noSuchMember', 'MUST')).toEqual([]);
  });
});
