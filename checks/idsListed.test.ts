import { describe, expect, it } from 'vitest';
import { idsListed } from './idsListed.ts';

describe('idsListed', () => {
  it('passes when every wanted id is listed, or none with listed false', () => {
    expect(idsListed('sites', ['S1']).run({ ids: ['S2', 'S1'] }).outcome).toBe('pass');
    expect(idsListed('payor contract', ['C1'], false).run({ ids: ['C2'] }).outcome).toBe('pass');
  });
  it('fails and names what is missing or still there', () => {
    expect(idsListed('sites', ['S1', 'S3']).run({ ids: ['S1'] }).message).toContain('without S3');
    expect(idsListed('payor contract', ['C1'], false).run({ ids: ['C1'] }).outcome).toBe('fail');
  });
});
