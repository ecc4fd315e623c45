import { describe, expect, test } from 'vitest';
import type { ServiceId } from '../spec/types.ts';
import { operation } from '../spec/operations.ts';
import {
  addressOf,
  DiscoveryDocumentNotFoundError,
  discover,
  discoveryConfigKey,
  TargetUnreachableError,
} from './discovery.ts';
import type { Exchange, ExchangeRequest } from './exchange.ts';
import type { HttpClient } from './http.ts';

/** A client that answers each URL as given (status, content type, body). */
function clientAnswering(answers: Record<string, [number, string, string]>): HttpClient {
  let n = 0;
  return {
    send: async (req: ExchangeRequest): Promise<Exchange> => {
      const a = answers[req.url];
      const base = { id: `d${++n}`, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1, request: req };
      if (!a) return { ...base, error: 'Connection refused', errorKind: 'transport' };
      const [status, type, bodyText] = a;
      return {
        ...base,
        response: { status, headers: { 'content-type': type }, bodyText, size: bodyText.length, truncated: false },
      };
    },
  } as unknown as HttpClient;
}

const M = 'https://t.example/wrong/.well-known/api-configuration';
const C = 'https://t.example/claims/.well-known/api-configuration';
const services = { membership: { discovery: M }, claims: { discovery: C } } as Record<ServiceId, { discovery: string }>;
const JSON_TYPE = 'application/json';

describe('discover', () => {
  test('a needed document answering 404 is a config problem naming the key, not a verdict on the target', async () => {
    const client = clientAnswering({ [M]: [404, 'text/plain', 'Not Found'], [C]: [200, JSON_TYPE, '{}'] });
    const error = await discover(client, services, ['membership']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscoveryDocumentNotFoundError);
    // The CLI treats it as it treats an unreachable target: exit 2 with the one-line message.
    expect(error).toBeInstanceOf(TargetUnreachableError);
    expect((error as Error).message).toBe(
      `discovery document of service membership not found at ${M} (HTTP 404): check config \`services.membership.discovery\``,
    );
    expect(discoveryConfigKey('membership')).toBe('services.membership.discovery');
  });

  test('nothing at the documented address of the clearing document is the target\u2019s failure (D1-1-09), not the config\u2019s', async () => {
    const client = clientAnswering({ [C]: [404, JSON_TYPE, '{"code":"MSG_NOT_FOUND"}'] });
    const found = await discover(client, services, ['claims']);
    const claims = found.get('claims');
    expect(claims?.keys).toBeUndefined();
    expect(claims?.documentedBase).toBe('https://t.example/claims');
    expect(claims?.problem).toBe(
      `Expected the discovery document of service claims at its documented address {claims_url}/.well-known/api-configuration, here ${C} ({claims_url} = https://t.example/claims), received HTTP 404; were {claims_url} another address, check config \`services.claims.discovery\``,
    );
    expect(addressOf(operation('search-bills'), found)).toEqual({ problem: claims?.problem, lacking: 'document' });
  });

  test('a configured address not of the documented form stays the config\u2019s problem', async () => {
    const elsewhere = 'https://t.example/claims/api-configuration.json';
    const client = clientAnswering({ [elsewhere]: [404, 'text/plain', 'Not Found'] });
    const configured = { ...services, claims: { discovery: elsewhere } };
    await expect(discover(client, configured, ['claims'])).rejects.toBeInstanceOf(DiscoveryDocumentNotFoundError);
    // Found there, the document's location is not judged.
    const found = await discover(clientAnswering({ [elsewhere]: [200, JSON_TYPE, '{}'] }), configured, ['claims']);
    expect(found.get('claims')?.documentedBase).toBeUndefined();
    expect(addressOf(operation('search-bills'), found)).toMatchObject({ lacking: 'key' });
  });

  test('a needed document that is not JSON (a web page at a wrong path) names the key too', async () => {
    const client = clientAnswering({ [M]: [200, 'text/html', '<html>home</html>'] });
    await expect(discover(client, services, ['membership'])).rejects.toThrow(
      `discovery document of service membership at ${M} is not JSON (HTTP 200, text/html): check config \`services.membership.discovery\``,
    );
  });

  test('a body the target calls JSON that does not parse (cut short) is the target\u2019s failure, not the config\u2019s (issue 30, item 5)', async () => {
    const client = clientAnswering({
      [M]: [200, 'application/json; charset=utf-8', '{"find_member_endpoint":"/membe'],
      [C]: [200, 'APPLICATION/FHIR+JSON', '{"get_claim_endpoint"'],
    });
    const found = await discover(client, services, ['membership', 'claims']);
    expect(found.get('membership')?.keys).toBeUndefined();
    expect(found.get('membership')?.problem).toMatch(
      /^Expected a JSON discovery document at .*, received a body that does not parse/,
    );
    expect(found.get('claims')?.problem).toMatch(/received a body that does not parse/);
  });

  test('a service the selection does not need keeps the reason and stops nothing', async () => {
    const client = clientAnswering({
      [C]: [200, JSON_TYPE, '{"get_claim_endpoint":"/claims/claim"}'],
      [M]: [404, '', ''],
    });
    const found = await discover(client, services, ['claims'], ['membership']);
    expect(found.get('claims')?.keys).toEqual({ get_claim_endpoint: '/claims/claim' });
    expect(found.get('membership')?.keys).toBeUndefined();
    expect(found.get('membership')?.problem).toMatch(/check config `services\.membership\.discovery`$/);
  });

  test('other answers stay the target\u2019s to explain (HTTP 500, a JSON array)', async () => {
    const client = clientAnswering({ [M]: [500, JSON_TYPE, '{}'], [C]: [200, JSON_TYPE, '[]'] });
    const found = await discover(client, services, ['membership', 'claims']);
    expect(found.get('membership')?.problem).toBe(
      `Expected HTTP 200 for the discovery document ${M}, received HTTP 500`,
    );
    expect(found.get('claims')?.problem).toMatch(/^Expected a JSON object as discovery document/);
  });
});
