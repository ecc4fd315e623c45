import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { describe, readObject } from './readJson.ts';
import { briefValue } from './valueKind.ts';

export interface SitesPageRequest {
  /** The `pageNumber` sent (from 1). */
  pageNumber: number;
  /** The `maxRecordsPerPage` sent. */
  maxRecordsPerPage: number;
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * A page of list authorised sites v2 carries consistent pagination (document 3, 4.1;
 * DEC-D3-05): `currentPage` is the requested page; `totalPages` is ceil(`totalRecords` /
 * `maxRecordsPerPage`) (0 or 1 when there are no records); `prevPage` is null on page 1 and
 * `currentPage`-1 otherwise; `nextPage` is null on the last page (or beyond) and
 * `currentPage`+1 otherwise; `sites` holds at most `maxRecordsPerPage` sites, and exactly what
 * remains for this page when the page is not past the end. Links are judged against the
 * response's own `currentPage`, so a wrong page number is reported once.
 */
export function sitesV2Pagination(request: SitesPageRequest): Check {
  const { pageNumber: page, maxRecordsPerPage: max } = request;
  return {
    id: 'sites-v2-pagination',
    summary: `Page ${page} of the authorised sites (${max} per page) carries consistent pagination`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const pagination = body.value.pagination;
      const sites = body.value.sites;
      if (!isRecord(pagination)) return fail(`Expected a pagination object, received ${describe(pagination)}`);
      if (!Array.isArray(sites)) return fail(`Expected a sites array, received ${describe(sites)}`);
      const { totalRecords, currentPage, totalPages, nextPage, prevPage } = pagination;
      const evidence = {
        request: { pageNumber: page, maxRecordsPerPage: max },
        totalRecords: briefValue(totalRecords, 40),
        currentPage: briefValue(currentPage, 40),
        totalPages: briefValue(totalPages, 40),
        nextPage: briefValue(nextPage, 40),
        prevPage: briefValue(prevPage, 40),
        sites: sites.length,
      };
      const problems: string[] = [];
      if (currentPage !== page) problems.push(`currentPage ${show(currentPage, 40)} (expected ${page})`);
      let lastPage: number | undefined;
      if (isCount(totalRecords)) {
        lastPage = Math.ceil(totalRecords / max);
        const ok = totalPages === lastPage || (totalRecords === 0 && totalPages === 1);
        if (!ok)
          problems.push(
            `totalPages ${show(totalPages, 40)} (expected ${totalRecords === 0 ? '0 or 1' : lastPage} for ${totalRecords} records)`,
          );
      } else {
        problems.push(`totalRecords ${show(totalRecords, 40)} (expected a whole number)`);
        if (isCount(totalPages)) lastPage = totalPages;
        else problems.push(`totalPages ${show(totalPages, 40)} (expected a whole number)`);
      }
      const current = Number.isSafeInteger(currentPage) ? (currentPage as number) : page;
      const wantPrev = current <= 1 ? null : current - 1;
      if (prevPage !== wantPrev)
        problems.push(`prevPage ${show(prevPage, 40)} (expected ${show(wantPrev)} on page ${current})`);
      if (lastPage !== undefined) {
        const wantNext = current >= lastPage ? null : current + 1;
        if (nextPage !== wantNext)
          problems.push(
            `nextPage ${show(nextPage, 40)} (expected ${show(wantNext)} on page ${current} of ${lastPage})`,
          );
      }
      const remaining = isCount(totalRecords) ? totalRecords - (page - 1) * max : undefined;
      if (sites.length > max) problems.push(`${sites.length} sites (expected at most ${max})`);
      else if (remaining !== undefined && remaining >= 0 && sites.length !== Math.min(max, remaining)) {
        problems.push(
          `${sites.length} sites (expected ${Math.min(max, remaining)} of ${totalRecords as number} on page ${page})`,
        );
      }
      if (problems.length === 0) {
        return pass(
          `page ${page} of ${show(totalPages)}: ${sites.length} of ${show(totalRecords)} sites, prevPage ${show(prevPage)}, nextPage ${show(nextPage)}`,
          evidence,
        );
      }
      return fail(
        `Expected consistent pagination for page ${page} with ${max} per page (DEC-D3-05), received ${problems.join('; ')}`,
        evidence,
      );
    },
  };
}
