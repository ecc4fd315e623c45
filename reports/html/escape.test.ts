import { describe, expect, it } from 'vitest';
import { requirementText } from './escape.ts';

describe('requirementText', () => {
  it('shows code spans as code and escapes everything', () => {
    expect(requirementText('Send `SU-SiteId` and `<b>` & more')).toBe(
      'Send <code>SU-SiteId</code> and <code>&lt;b&gt;</code> &amp; more',
    );
    expect(requirementText('an odd ` backtick')).toBe('an odd ` backtick');
  });
});
