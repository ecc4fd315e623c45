import { describe, expect, it } from 'vitest';
import { refusalReturnsNoData } from './refusalReturnsNoData.ts';
import { respondedExchange } from './testing.ts';

const siteUsers = refusalReturnsNoData('accounts-site-users.schema.json');
const userInfo = refusalReturnsNoData('accounts-user-info.schema.json');
const sitesV1 = refusalReturnsNoData('accounts-sites-v1.schema.json');

describe('refusalReturnsNoData', () => {
  it('fails on a refusal whose body is the success answer', () => {
    const leaked = respondedExchange({
      status: 401,
      body: { siteId: 'SITE001', siteName: 'Main', users: [{ userId: 'U1', firstName: 'Alice' }] },
    });
    const finding = siteUsers.run(leaked);
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toMatch(/^Expected a refusal without data, received HTTP 401 whose body is a success/);
  });

  it('passes the documented message body, one a success schema also accepts', () => {
    expect(
      siteUsers.run(respondedExchange({ status: 401, body: { message: 'Unauthorized', code: 401 } })).outcome,
    ).toBe('pass');
  });

  it('passes an empty list, an empty body, text and an error of another shape', () => {
    expect(sitesV1.run(respondedExchange({ status: 403, body: [] })).outcome).toBe('pass');
    expect(userInfo.run(respondedExchange({ status: 401, body: '' })).outcome).toBe('pass');
    expect(userInfo.run(respondedExchange({ status: 401, body: '<html>no</html>' })).outcome).toBe('pass');
    expect(userInfo.run(respondedExchange({ status: 401, body: { error: 'invalid_token' } })).outcome).toBe('pass');
  });

  it('judges refusals only, and skips a truncated body', () => {
    expect(siteUsers.appliesTo?.(respondedExchange({ status: 200, body: { siteId: 'S', users: [] } }))).toBe(false);
    expect(siteUsers.appliesTo?.(respondedExchange({ status: 500, body: {} }))).toBe(false);
    expect(siteUsers.run(respondedExchange({ status: 401, body: '{"siteId":', truncated: true })).outcome).toBe('skip');
  });
});
