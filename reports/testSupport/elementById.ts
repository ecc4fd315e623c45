/** The markup of the element whose start tag carries `id="<id>"`, up to its closing `</tag>` (for tests of the pages). */
export function elementById(html: string, id: string): string {
  const start = html.search(new RegExp(`<([a-z0-9]+)[^>]*\\sid="${id}"`));
  if (start < 0) throw new Error(`no element #${id}`);
  const tag = /^<([a-z0-9]+)/.exec(html.slice(start))?.[1] ?? '';
  const end = html.indexOf(`</${tag}>`, start);
  return html.slice(start, end + tag.length + 3);
}
