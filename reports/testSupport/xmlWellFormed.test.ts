import { describe, expect, it } from 'vitest';
import { findAll, parseXml } from './xmlWellFormed.ts';

describe('parseXml (test support)', () => {
  it('accepts a well-formed document and decodes references', () => {
    const root = parseXml(
      '<?xml version="1.0" encoding="UTF-8"?>\n<a x="1 &amp; &quot;2&quot;" y=\'&#10;\'><b/><!-- note --><b>t &lt; u &#x263A;</b><![CDATA[<raw>]]></a>\n',
    );
    expect(root.name).toBe('a');
    expect(root.attributes).toEqual({ x: '1 & "2"', y: '\n' });
    expect(findAll(root, 'b')).toHaveLength(2);
    expect(root.children[1]?.text).toBe('t < u \u263A');
    expect(root.text).toBe('<raw>');
  });

  it.each([
    ['unclosed element', '<a><b></a>'],
    ['mismatched end tag', '<a></b>'],
    ['unclosed root', '<a>'],
    ['raw & in an attribute', '<a x="1 & 2"/>'],
    ['raw < in an attribute', '<a x="<"/>'],
    ['unquoted attribute', '<a x=1/>'],
    ['duplicate attribute', '<a x="1" x="2"/>'],
    ['raw & in text', '<a>1 & 2</a>'],
    ['raw < in text', '<a>1 < 2</a>'],
    ['unknown entity', '<a>&nbsp;</a>'],
    ['invalid character', '<a>\u0001</a>'],
    ['invalid character reference', '<a>&#0;</a>'],
    ['two roots', '<a/><b/>'],
    ['text outside the root', '<a/>x'],
    ['no root', '<?xml version="1.0"?>'],
    ['attributes without space', '<a x="1"y="2"/>'],
  ])('rejects %s', (_what, xml) => {
    expect(() => parseXml(xml)).toThrow();
  });
});
