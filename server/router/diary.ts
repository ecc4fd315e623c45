/**
 * Diary operations (Document 3, 2.3, 4.3; DEC-D3-10, -11). Post authorisation reads the
 * multipart/form-data field `Code` (a form-urlencoded body is read alike) and answers HTTP 200
 * with `response` 1 Unauthorized, 2 Ok (with `access_token`) or 3 SiteNotMapped, echoing
 * `StateToken`. Refresh answers a new diary token for a live diary bearer token, else response 1.
 * The lists need a diary token: otherwise HTTP 401 with no body.
 */
import { FORM_MEDIA_TYPE, mediaType } from './auth.ts';
import { MessageError } from './errors.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

/** The text fields of a multipart/form-data body (file parts are read as text too). */
export function multipartFields(contentType: string | undefined, body: string): Map<string, string> {
  const fields = new Map<string, string>();
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!boundary) return fields;
  for (const part of body.split(`--${boundary[1] ?? boundary[2]}`)) {
    const split = part.indexOf('\r\n\r\n') >= 0 ? part.indexOf('\r\n\r\n') : part.indexOf('\n\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    const value = part.slice(split + (part.startsWith('\r\n', split) ? 4 : 2)).replace(/\r?\n$/, '');
    if (!fields.has(name)) fields.set(name, value);
  }
  return fields;
}

export function postAuthFields(req: SandboxRequest): Map<string, string> {
  const type = mediaType(req.headers['content-type']);
  if (type === 'multipart/form-data') return multipartFields(req.headers['content-type'], req.rawBody);
  if (type === FORM_MEDIA_TYPE) return new Map(new URLSearchParams(req.rawBody));
  return new Map();
}

export async function diaryPostAuth(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const fields = postAuthFields(req);
  const code = (fields.get('Code') ?? '').trim();
  const stateToken = fields.get('StateToken');
  const echo = stateToken === undefined ? {} : { StateToken: stateToken };
  const response = (await ctx.repo.diaryCodes()).find((c) => c.code === code)?.response ?? 1;
  if (response !== 2) return ok({ response, ...echo });
  return ok({ access_token: await ctx.repo.issueDiaryToken(), response, ...echo });
}

async function isDiaryToken(req: SandboxRequest, ctx: SandboxContext): Promise<boolean> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  return token !== undefined && (await ctx.repo.accessGrant(token))?.kind === 'diary';
}

export async function diaryRefreshToken(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  if (!(await isDiaryToken(req, ctx))) return ok({ response: 1 });
  return ok({ access_token: await ctx.repo.issueDiaryToken(), response: 2 });
}

type ListName = 'episodeTypes' | 'appointmentStatuses' | 'recurrenceTypes';

const diaryList =
  (name: ListName) =>
  async (req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> => {
    if (!(await isDiaryToken(req, ctx))) throw new MessageError(401, 'Unauthorized', 'empty');
    const data = (await ctx.repo.diaryLists())[name];
    return ok({ data: data.map((item) => ({ ...item })), success: true, errors: null, status: 200 });
  };

export const listEpisodeTypes = diaryList('episodeTypes');
export const listAppointmentStatuses = diaryList('appointmentStatuses');
export const listRecurrenceTypes = diaryList('recurrenceTypes');
