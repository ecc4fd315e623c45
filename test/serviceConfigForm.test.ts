/**
 * The config form of the certification service (service/configForm.ts), generated from
 * core/config.schema.json: every node of the schema has a field with its description, the demo
 * config shown in the form and read back is the same JSON, and over real HTTP a partner saves a
 * config through the form, sees its problems at their fields, and enters secrets that are stored
 * encrypted and never shown back.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CONFIG_FILE } from '../server/demoConfig.ts';
import {
  CONFIG_FORM,
  fieldsOf,
  type FormNode,
  formToConfig,
  formValuesOf,
  renderConfigForm,
} from '../service/configForm.ts';
import { openSecrets } from '../service/secretHosts.ts';
import { type RunningService, startService } from '../service/startService.ts';
import { inviteLinkOf, Person } from '../service/testSupport/browserless.ts';

type Schema = Record<string, unknown> & {
  $ref?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
};
const SCHEMA = JSON.parse(readFileSync(new URL('../core/config.schema.json', import.meta.url), 'utf8')) as Schema & {
  $defs: Record<string, Schema>;
};
const deref = (s: Schema): Schema => (s.$ref ? deref(SCHEMA.$defs[s.$ref.replace('#/$defs/', '')]) : s);

/** Every place a value can be written in a config: [pointer, the schema node there]. */
function schemaPlaces(node: Schema, pointer: string, into: [string, Schema][] = []): [string, Schema][] {
  const s = deref(node);
  const members = s.oneOf ? s.oneOf.map(deref) : [s];
  for (const m of members) {
    for (const [k, p] of Object.entries(m.properties ?? {})) {
      into.push([`${pointer}/${k}`, p]);
      schemaPlaces(p, `${pointer}/${k}`, into);
    }
    if (m.additionalProperties && typeof m.additionalProperties === 'object')
      into.push([`${pointer}/*`, m.additionalProperties]);
  }
  return into;
}

const demo = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as Record<string, unknown>;

describe('the form generated from the schema', () => {
  test('every node of the schema has a field or a fieldset, each with its description as help', () => {
    const fields = new Map(fieldsOf().map((f) => [f.pointer, f]));
    const groups = new Map<string, FormNode>();
    const walk = (n: FormNode) => {
      if (n.node === 'field') return;
      groups.set(n.pointer, n);
      n.children.forEach(walk);
    };
    walk(CONFIG_FORM);
    const places = schemaPlaces(SCHEMA, '');
    expect(places.length).toBeGreaterThan(150);
    for (const [pointer, node] of places) {
      const field = fields.get(pointer);
      const group = groups.get(pointer);
      expect(field ?? group, pointer).toBeDefined();
      const help = field ? field.help : group && group.node !== 'field' ? group.help : '';
      expect(help, pointer).not.toBe('');
      // The help is the schema's own description (a reference's description where it is used).
      const description = node.description ?? deref(node).description;
      if (description && pointer !== '' && !pointer.endsWith('/type') && !pointer.endsWith('/*'))
        expect(help, pointer).toBe(description);
    }
    // A credential is a choice of grant: its type lists the grants.
    expect(fields.get('/auth/type')?.options).toEqual(['client-credentials', 'password', 'bearer']);
    expect(fields.get('/features')?.kind).toBe('lines');
    expect(fields.get('/http/timeoutMs')?.kind).toBe('integer');
    expect(fields.get('/fixtures/findMemberV2/single/*')?.kind).toBe('pairs');
    expect(fields.get('/credentials/*')?.kind).toBe('json');
  });

  test('the demo config shown in the form and read back is the same JSON', () => {
    const values = formValuesOf(demo);
    expect(values['cfg:/features']).toBe('Advanced_Search_1_0\nAdvanced_Filtering_And_Sorting_1_0');
    expect(values['cfg:/credentials/user/type']).toBe('password');
    const back = formToConfig(values);
    expect(back.problems).toEqual([]);
    expect(back.config).toEqual(demo);
    // Rendered and read back from the page's own fields, too.
    const page = renderConfigForm(values).text;
    const fromPage: Record<string, string> = {};
    for (const m of page.matchAll(/<input type="(?:text|number)"[^>]* name="([^"]+)"[^>]* value="([^"]*)"/g))
      fromPage[m[1]] = unescapeHtml(m[2]);
    for (const m of page.matchAll(/<textarea name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g))
      fromPage[m[1]] = unescapeHtml(m[2]);
    for (const m of page.matchAll(/<select name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g))
      fromPage[m[1]] = unescapeHtml(/<option selected>([^<]*)</.exec(m[2])?.[1] ?? '');
    expect(formToConfig(fromPage).config).toEqual(demo);
  });

  test('credentials of other names, further search fields and a grant’s own members round-trip too', () => {
    const config = {
      ...demo,
      auth: { type: 'bearer', tokenEnv: 'MY_TOKEN' },
      credentials: { other: { type: 'bearer', tokenEnv: 'OTHER_TOKEN' } },
      attestation: { organisation: 'Acme', environment: 'staging' },
      http: { timeoutMs: 2000, concurrency: 3 },
    };
    expect(formToConfig(formValuesOf(config)).config).toEqual(config);
  });

  test('a value of the wrong kind is a problem at its field, one line', () => {
    const values = {
      ...formValuesOf(demo),
      'cfg:/http/timeoutMs': 'soon',
      'cfg:/fixtures/findMemberV2/single/*': 'firstInitial J',
    };
    const { problems } = formToConfig(values);
    expect(problems).toEqual([
      { pointer: '/http/timeoutMs', line: 'Expected a whole number at /http/timeoutMs, received "soon"' },
      {
        pointer: '/fixtures/findMemberV2/single/*',
        line: 'Expected name=value lines at /fixtures/findMemberV2/single, received "firstInitial J"',
      },
    ]);
    const page = renderConfigForm(values, problems).text;
    expect(page).toMatch(/name="cfg:\/http\/timeoutMs"[^>]*><small class="help">[^<]*<\/small><span class="problem"/);
  });
});

const unescapeHtml = (s: string) =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

describe('the config page, over HTTP', () => {
  const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };
  let service: RunningService;
  let partner: Person;
  let product: string;
  beforeAll(async () => {
    service = await startService({
      dataDir: mkdtempSync(join(tmpdir(), 'service-config-form-')),
      environment: {
        CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
        CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
        CONFORMANCE_SERVICE_KEY: 'cd'.repeat(32),
      },
      allowRanges: ['loopback'],
      workerConcurrency: 0,
    });
    const operator = new Person(service.url!);
    await operator.signIn(OPERATOR.email, OPERATOR.password);
    const org = (await operator.post('/organisations', { name: 'Kappa' }, '/organisations')).location!;
    const invite = await operator.post(`${org}/invites`, { email: 'someone@kappa.test' }, org);
    partner = new Person(service.url!);
    await partner.acceptInvite(inviteLinkOf(invite.text), 'partner-password-1');
    product = (await partner.post('/products', { name: 'Kappa server', version: '1', baseUrl: 'http://127.0.0.1:9' }))
      .location!;
  }, 60_000);
  afterAll(() => service?.close());

  test('a partner saves the demo config through the form with its secrets; problems show at their fields', async () => {
    const config = `${product}/config`;
    const page = await partner.get(config);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="cfg:/services/base"');
    expect(page.text).toContain('Advanced: the config file as JSON');
    // Its style is a file: the pages' policy allows only the layout's inline style.
    expect(page.text.match(/<style>/g)).toHaveLength(1);
    expect(page.text).toContain('<link rel="stylesheet" href="/assets/config-form.css">');
    const css = await fetch(`${service.url}/assets/config-form.css`);
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);

    const bad = await partner.post(
      config,
      {
        mode: 'form',
        ...formValuesOf(demo),
        'cfg:/http/timeoutMs': '50',
        'secret:CONFORMANCE_CLIENT_SECRET': 'kept-out',
      },
      config,
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(
      /name="cfg:\/http\/timeoutMs"[^>]*value="50"><small class="help">[^<]*<\/small><span class="problem" data-at="\/http\/timeoutMs">The config is invalid at \/http\/timeoutMs: must be &gt;= 100<\/span>/,
    );
    // What was typed is shown again, but no secret.
    expect(bad.text).toContain('value="SITE001"');
    expect(bad.text).not.toContain('kept-out');

    const secrets = Object.fromEntries(
      ['CONFORMANCE_CLIENT_ID', 'CONFORMANCE_CLIENT_SECRET'].map((n) => [`secret:${n}`, `value-of-${n}`]),
    );
    const saved = await partner.post(config, { mode: 'form', ...formValuesOf(demo), ...secrets }, config);
    expect(saved).toMatchObject({ status: 303, location: product });
    const row = await service.ctx.db.selectFrom('product_configs').selectAll().executeTakeFirstOrThrow();
    expect(JSON.parse(row.config_json!)).toEqual(demo);
    expect(row.secrets_encrypted).not.toContain('value-of');
    expect(openSecrets(service.ctx.box, row.secrets_encrypted)).toEqual({
      values: {
        CONFORMANCE_CLIENT_ID: 'value-of-CONFORMANCE_CLIENT_ID',
        CONFORMANCE_CLIENT_SECRET: 'value-of-CONFORMANCE_CLIENT_SECRET',
      },
      // Bound to the hosts they were given for: the base URL's, which every URL of the demo config names.
      hosts: ['127.0.0.1:9'],
    });
    // The product page names the variables still without a value; the form shows a password field for each.
    const productPage = await partner.get(product);
    expect(productPage.text).toMatch(/Expected a stored secret for CONFORMANCE_USER_NAME, .*received none/);
    const again = await partner.get(config);
    expect(again.text).toContain('name="secret:CONFORMANCE_USER_PASSWORD"');
    expect(again.text).toMatch(/name="secret:CONFORMANCE_CLIENT_SECRET"[^>]*placeholder="stored/);
    expect(again.text).not.toContain('value-of');
    // A further secret merges with those stored.
    await partner.post(
      config,
      { mode: 'form', ...formValuesOf(demo), 'secret:CONFORMANCE_USER_NAME': 'alice' },
      config,
    );
    const merged = await service.ctx.db.selectFrom('product_configs').selectAll().executeTakeFirstOrThrow();
    expect(Object.keys(openSecrets(service.ctx.box, merged.secrets_encrypted).values).sort()).toEqual([
      'CONFORMANCE_CLIENT_ID',
      'CONFORMANCE_CLIENT_SECRET',
      'CONFORMANCE_USER_NAME',
    ]);
  });

  test('a token endpoint moved to another host takes no stored secret there: refused until the secrets are entered again', async () => {
    const config = `${product}/config`;
    const stored = await service.ctx.db.selectFrom('product_configs').selectAll().executeTakeFirstOrThrow();
    const moved = {
      ...demo,
      auth: { ...(demo.auth as Record<string, unknown>), tokenUrl: 'http://collector.test:9/oauth/token' },
    };
    const refused = await partner.post(config, { config: JSON.stringify(moved) }, config);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(
      'The config now names collector.test:9, which the stored secrets CONFORMANCE_CLIENT_ID, CONFORMANCE_CLIENT_SECRET, CONFORMANCE_USER_NAME were not given for: enter them again to send them there.',
    );
    const unchanged = await service.ctx.db.selectFrom('product_configs').selectAll().executeTakeFirstOrThrow();
    expect(unchanged).toEqual(stored);
    // Entering only some of them again is not enough: the others would still travel.
    const partly = await partner.post(
      config,
      { config: JSON.stringify(moved), secrets: 'CONFORMANCE_CLIENT_SECRET=for-the-collector' },
      config,
    );
    expect(partly.status).toBe(400);
    expect(partly.text).toContain('the stored secrets CONFORMANCE_CLIENT_ID, CONFORMANCE_USER_NAME were not given for');
    // Every one entered again: saved, and bound to the new host too.
    const all = await partner.post(
      config,
      {
        config: JSON.stringify(moved),
        secrets: 'CONFORMANCE_CLIENT_ID=a\nCONFORMANCE_CLIENT_SECRET=b\nCONFORMANCE_USER_NAME=c',
      },
      config,
    );
    expect(all).toMatchObject({ status: 303, location: product });
    const rebound = await service.ctx.db.selectFrom('product_configs').selectAll().executeTakeFirstOrThrow();
    expect(openSecrets(service.ctx.box, rebound.secrets_encrypted).hosts).toEqual(['127.0.0.1:9', 'collector.test:9']);
    // Back to the base URL's host alone: nothing new to the secrets, no need to enter them.
    const back = await partner.post(config, { config: JSON.stringify(demo) }, config);
    expect(back).toMatchObject({ status: 303, location: product });
  });
});

test('the settings the service refuses (files, proxies) are shown disabled, with why', async () => {
  const { REFUSED_POINTERS } = await import('../service/configCheck.ts');
  const page = renderConfigForm({}, [], REFUSED_POINTERS).text;
  for (const pointer of ['/http/caFile', '/http/proxy', '/target'])
    expect(page).toMatch(
      new RegExp(`id="f${pointer.replaceAll('/', '-')}" disabled[^>]*><small class="help">[^<]*Not taken here`),
    );
  expect(page).not.toContain('name="cfg:/http/caFile"');
});
