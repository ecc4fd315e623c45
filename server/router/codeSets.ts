/**
 * Master code sets (Document 2, 2.2, 4.1, 8; DEC-D2-02..06, -32): `{set_name}[/{scheme}]`, where
 * the segment after `practitioner-specialty` is a profession code that narrows the specialties.
 * Paged 1 to 1,000 per page (default 100); `_since` keeps codes updated at or after it; an unknown
 * scheme or profession gives an empty expansion.
 */
import { CODE_SET_NAMES } from '../../spec/operationsD2.ts';
import type { CodeItem } from '../repo/model.ts';
import type { Repository } from '../repo/repository.ts';
import { valueSetItemOf, valueSetOf, type CodeDisplay } from '../resources/valueSet.ts';
import { authorise } from './auth.ts';
import { expansionPage, pagingOf } from './paging.ts';
import { CODE_SET_PROFILE, readParameters, sameText, since } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const OP = 'get-code-set';
export const CODE_SET_MAX_COUNT = 1000;
export const CODE_SET_DEFAULT_COUNT = 100;
const NARROWED_BY_PROFESSION = 'practitioner-specialty';

/** The code-set page size rule (4.1, 8; DEC-D2-03): an integer from 1 to 1,000. */
const COUNT_FORMAT = {
  test: (v: string) => /^[1-9]\d{0,8}$/.test(v) && Number(v) <= CODE_SET_MAX_COUNT,
  text: `an integer from 1 to ${CODE_SET_MAX_COUNT}`,
};

/** Displays of the codes of every code set, for resources that show coded values. */
export async function codeDisplays(repo: Repository): Promise<CodeDisplay> {
  const sets = new Map<string, ReadonlyMap<string, string>>();
  for (const name of CODE_SET_NAMES) {
    const set = await repo.codeSet(name);
    if (set) sets.set(name, new Map(set.items.map((i) => [i.code, i.display])));
  }
  return (setName, code) => sets.get(setName)?.get(code) ?? code;
}

export async function getCodeSet(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, OP);
  const values = readParameters(ctx, {
    operationId: OP,
    profile: CODE_SET_PROFILE,
    source: req.query,
    path: req.params,
    formats: { count: COUNT_FORMAT },
  });
  const setName = values.set_name;
  const set = await ctx.repo.codeSet(setName);
  const segment = values.scheme;
  let items: readonly CodeItem[] = set?.items ?? [];
  if (segment !== undefined) {
    if (setName !== NARROWED_BY_PROFESSION)
      items = items.filter((i) => i.scheme !== undefined && sameText(i.scheme, segment));
    else items = items.filter((i) => i.profession !== undefined && sameText(i.profession, segment));
  }
  if (values._since !== undefined) items = items.filter((i) => since(values._since)(i.lastUpdated));
  const page = expansionPage(items, pagingOf(values, CODE_SET_DEFAULT_COUNT));
  return ok(
    valueSetOf({
      id: [setName, segment]
        .filter((s) => s !== undefined)
        .join('-')
        .replace(/[^A-Za-z0-9.-]/g, '-')
        .slice(0, 64),
      name: setName,
      tag: page.tag,
      total: page.total,
      offset: page.offset,
      contains: page.items.map((i) => valueSetItemOf(setName, i)),
    }),
  );
}
