/**
 * A person at the service, over real HTTP without a browser: a cookie jar, forms sent with the
 * page's CSRF token, redirects not followed (the tests read them).
 */
export interface Answer {
  status: number;
  location?: string;
  text: string;
  headers: Headers;
}

export class Person {
  readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  async request(method: string, path: string, form?: Record<string, string>): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(this.base + path, {
      method,
      headers,
      redirect: 'manual',
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const location = response.headers.get('location') ?? undefined;
    return {
      status: response.status,
      text: await response.text(),
      headers: response.headers,
      ...(location ? { location } : {}),
    };
  }

  get(path: string): Promise<Answer> {
    return this.request('GET', path);
  }

  /** The CSRF token of the page at `from` (a form's hidden field). */
  async token(from = '/products'): Promise<string> {
    const page = await this.get(from);
    const m = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!m) throw new Error(`No CSRF token on ${from} (status ${page.status})`);
    return m[1];
  }

  /** Sends a form with a CSRF token taken from the page at `from`. */
  async post(path: string, form: Record<string, string>, from = '/products'): Promise<Answer> {
    return this.request('POST', path, { _csrf: await this.token(from), ...form });
  }

  async signIn(email: string, password: string): Promise<Answer> {
    const token = await this.token('/');
    return this.request('POST', '/sign-in', { _csrf: token, email, password });
  }

  /** Accepts an invite (its path or whole link) with a password; signed in afterwards. */
  async acceptInvite(link: string, password: string): Promise<Answer> {
    const path = link.replace(/^https?:\/\/[^/]+/, '');
    const token = await this.token(path);
    return this.request('POST', path, { _csrf: token, password });
  }
}

/** The one-time link on an invite page. */
export function inviteLinkOf(text: string): string {
  const m = /<code id="invite-link">([^<]+)<\/code>/.exec(text);
  if (!m) throw new Error('No invite link on the page');
  return m[1];
}

/**
 * A partner of a new organisation: the operator (a signed-in Person, or their email and password)
 * creates the organisation `name` and invites someone@<name>.test, who sets a password.
 */
export async function newPartner(
  url: string,
  operator: Person | { email: string; password: string },
  name: string,
): Promise<Person> {
  let signedIn: Person;
  if (operator instanceof Person) signedIn = operator;
  else {
    signedIn = new Person(url);
    await signedIn.signIn(operator.email, operator.password);
  }
  const org = (await signedIn.post('/organisations', { name }, '/organisations')).location;
  if (org === undefined) throw new Error(`The organisation ${name} was not created`);
  const invite = await signedIn.post(`${org}/invites`, { email: `someone@${name.toLowerCase()}.test` }, org);
  const partner = new Person(url);
  await partner.acceptInvite(inviteLinkOf(invite.text), 'partner-password-1');
  return partner;
}

/**
 * Starts a client workspace of a client product (the product page's form, with its CSRF token);
 * answers the run's id.
 */
export async function startWorkspace(
  person: Person,
  product: string,
  scenarios: readonly string[],
  timeoutSeconds = 120,
): Promise<string> {
  const body = new URLSearchParams({ _csrf: await person.token(product), timeoutSeconds: String(timeoutSeconds) });
  for (const s of scenarios) body.append('scenarios', s);
  const answer = await fetch(`${person.base}${product}/workspaces`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    },
    body,
  });
  const location = answer.headers.get('location') ?? '';
  const id = /^\/runs\/([\w-]+)\/workspace$/.exec(location)?.[1];
  if (answer.status !== 303 || id === undefined)
    throw new Error(`Expected 303 to a workspace, received ${answer.status} to ${JSON.stringify(location)}`);
  return id;
}
