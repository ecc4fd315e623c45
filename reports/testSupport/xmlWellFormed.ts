/**
 * A small strict XML 1.0 well-formedness checker for the report tests (no dependency): one root,
 * balanced and matching tags, quoted attributes without `<` or stray `&`, no duplicate attributes,
 * only the five predefined entities and character references, only XML 1.0 characters.
 * Returns the element tree with decoded text and attribute values so tests can query it.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data directly inside this element (decoded). */
  text: string;
}

const NAME = /[A-Za-z_:][A-Za-z0-9._:-]*/y;
const SPACE = /[ \t\r\n]+/y;
const INVALID_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export class XmlError extends Error {}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** Decodes references in text or an attribute value; throws on a bare `&` or an unknown entity. */
function decode(raw: string, where: number): string {
  return raw.replace(/&([^;&]*)(;?)/g, (_m, body: string, semi: string) => {
    if (semi !== ';') throw new XmlError(`bare '&' near offset ${where}`);
    if (body in ENTITIES) return ENTITIES[body] as string;
    const num = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(body);
    if (!num) throw new XmlError(`unknown entity &${body}; near offset ${where}`);
    const code = num[1] !== undefined ? parseInt(num[1], 16) : parseInt(num[2] as string, 10);
    if (!isXmlChar(code)) throw new XmlError(`character reference to an invalid character near offset ${where}`);
    return String.fromCodePoint(code);
  });
}

export function parseXml(xml: string): XmlElement {
  const bad = INVALID_CHAR.exec(xml);
  if (bad)
    throw new XmlError(`invalid XML character U+${(bad[0].codePointAt(0) ?? 0).toString(16)} at offset ${bad.index}`);
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  const fail = (what: string): never => {
    throw new XmlError(`${what} at offset ${i}`);
  };
  const readName = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(xml);
    if (!m) fail('expected a name');
    i += (m as RegExpExecArray)[0].length;
    return (m as RegExpExecArray)[0];
  };
  const skipSpace = (): boolean => {
    SPACE.lastIndex = i;
    const m = SPACE.exec(xml);
    if (m) i += m[0].length;
    return m !== null;
  };

  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) fail('unterminated XML declaration');
    if (
      !/^<\?xml\s+version="1\.[0-9]+"(\s+encoding="[A-Za-z][A-Za-z0-9._-]*")?(\s+standalone="(yes|no)")?\s*\?>$/.test(
        xml.slice(0, end + 2),
      )
    ) {
      fail('malformed XML declaration');
    }
    i = end + 2;
  }

  while (i < xml.length) {
    if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i + 4);
      if (end < 0) fail('unterminated comment');
      if (xml.slice(i + 4, end).includes('--')) fail("'--' inside a comment");
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', i)) {
      if (stack.length === 0) fail('CDATA outside the root element');
      const end = xml.indexOf(']]>', i);
      if (end < 0) fail('unterminated CDATA section');
      (stack[stack.length - 1] as XmlElement).text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith('<!', i)) {
      fail('DOCTYPE and other declarations are not accepted');
    } else if (xml.startsWith('<?', i)) {
      const end = xml.indexOf('?>', i);
      if (end < 0) fail('unterminated processing instruction');
      if (/^<\?xml[\s?]/i.test(xml.slice(i, i + 6))) fail('XML declaration not at the start');
      i = end + 2;
    } else if (xml.startsWith('</', i)) {
      i += 2;
      const name = readName();
      skipSpace();
      if (xml[i] !== '>') fail(`expected '>' to close </${name}`);
      i += 1;
      const open = stack.pop();
      if (open === undefined) fail(`end tag </${name}> without a start tag`);
      if ((open as XmlElement).name !== name) fail(`end tag </${name}> does not match <${(open as XmlElement).name}>`);
    } else if (xml[i] === '<') {
      i += 1;
      if (stack.length === 0 && root !== undefined) fail('a second root element');
      const el: XmlElement = { name: readName(), attributes: {}, children: [], text: '' };
      for (;;) {
        const spaced = skipSpace();
        if (xml.startsWith('/>', i) || xml[i] === '>') break;
        if (!spaced) fail('expected whitespace before an attribute');
        const attr = readName();
        skipSpace();
        if (xml[i] !== '=') fail(`expected '=' after attribute ${attr}`);
        i += 1;
        skipSpace();
        const quote = xml[i];
        if (quote !== '"' && quote !== "'") fail(`attribute ${attr} value is not quoted`);
        const end = xml.indexOf(quote as string, i + 1);
        if (end < 0) fail(`unterminated value of attribute ${attr}`);
        const raw = xml.slice(i + 1, end);
        if (raw.includes('<')) fail(`raw '<' in the value of attribute ${attr}`);
        if (Object.hasOwn(el.attributes, attr)) fail(`duplicate attribute ${attr}`);
        // Attribute-value normalisation: literal whitespace characters become spaces.
        el.attributes[attr] = decode(raw.replace(/[\t\n\r]/g, ' '), i);
        i = end + 1;
      }
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else root = el;
      if (xml.startsWith('/>', i)) i += 2;
      else {
        i += 1;
        stack.push(el);
      }
    } else {
      const next = xml.indexOf('<', i);
      const raw = xml.slice(i, next < 0 ? xml.length : next);
      if (stack.length === 0) {
        if (raw.trim() !== '') fail('text outside the root element');
      } else {
        if (raw.includes(']]>')) fail("']]>' in character data");
        (stack[stack.length - 1] as XmlElement).text += decode(raw, i);
      }
      i += raw.length;
    }
  }
  if (stack.length > 0) throw new XmlError(`unclosed element <${(stack[stack.length - 1] as XmlElement).name}>`);
  if (root === undefined) throw new XmlError('no root element');
  return root;
}

/** Every descendant element named `name`, depth first. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of el.children) {
    if (child.name === name) out.push(child);
    out.push(...findAll(child, name));
  }
  return out;
}
