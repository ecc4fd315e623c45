/**
 * Server-rendered pages without a front-end build: a tagged template that escapes every value
 * (only a `Raw` fragment, itself built by this template, goes in as it is), and the page layout.
 */
export class Raw {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

type Value = string | number | Raw | undefined | null | false | readonly Value[];

function render(v: Value): string {
  if (v === undefined || v === null || v === false) return '';
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Raw {
  let out = strings[0];
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1];
  });
  return new Raw(out);
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f}header{background:#17324d;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1rem;align-items:center}header a{color:#fff}header form{margin-left:auto}main{padding:1.2rem;max-width:60rem}table{border-collapse:collapse;margin:.6rem 0}td,th{border:1px solid #ccd;padding:.3rem .6rem;text-align:left}label{display:block;margin:.4rem 0}input[type=text],input[type=email],input[type=password],input[type=url],textarea{width:100%;max-width:36rem;padding:.3rem}textarea{height:8rem;font-family:monospace}.problem{color:#a00}.notice{background:#eef6ee;padding:.5rem}.verdict-conformant{color:#070}.verdict-not-conformant{color:#a00}form.inline{display:inline-block;margin:0 .3rem}`;

/** The page around a body; `signOut` holds the sign-out form's CSRF token when someone is signed in. */
export function page(title: string, body: Raw, who?: { email: string; csrf: string; operator: boolean }): string {
  const nav = who
    ? html`<a href="/products">Products</a>${who.operator ? html` <a href="/organisations">Organisations</a>` : ''} <a href="/audit">Audit</a>
<a href="/account">${who.email}</a>
<form method="post" action="/sign-out"><input type="hidden" name="_csrf" value="${who.csrf}"><button>Sign out</button></form>`
    : '';
  return `<!doctype html>\n${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Conformance service</title><style>${new Raw(STYLE)}</style></head>
<body><header><strong>Conformance service</strong>${nav}</header><main><h1>${title}</h1>
${body}</main></body></html>`}`;
}

export const csrfField = (token: string): Raw => html`<input type="hidden" name="_csrf" value="${token}">`;
