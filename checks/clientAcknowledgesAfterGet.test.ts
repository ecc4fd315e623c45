import { describe, expect, it } from 'vitest';
import { clientAcknowledgesAfterGet as check } from './clientAcknowledgesAfterGet.ts';
import { clientExchange as x } from './testing.ts';

const get = (id: string, status = 200) => x('get-remittance-details', { method: 'GET', rawPath: `/b/${id}`, status });
const ack = (id: string) => x('ack-remittance', { method: 'DELETE', rawPath: `/b/${id}` });

describe('clientAcknowledgesAfterGet', () => {
  it('passes an acknowledgement after a successful get of the same batch', () => {
    expect(check.run([get('B1'), ack('B1')]).outcome).toBe('pass');
  });

  it('fails an acknowledgement before the get, of another batch, or after a failed get', () => {
    expect(check.run([ack('B1'), get('B1')]).outcome).toBe('fail');
    expect(check.run([get('B2'), ack('B1')]).message).toMatch(/acknowledgement of B1 with no successful get/);
    expect(check.run([get('B1', 404), ack('B1')]).outcome).toBe('fail');
  });

  it('skips when nothing was acknowledged', () => {
    expect(check.run([get('B1')]).outcome).toBe('skip');
  });
});
