import { describe, expect, it } from 'vitest';
import { decodeBase64Strict, photoDataMatchesSize } from './photoDataMatchesSize.ts';
import { respondedExchange } from './testing.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');

const attachment = (bytes: Buffer, contentType: unknown, extra: Record<string, unknown> = {}) => ({
  contentType,
  data: bytes.toString('base64'),
  size: bytes.length,
  title: 'photo',
  ...extra,
});
const photo = (valueAttachment: unknown) => ({
  resourceType: 'Parameters',
  parameter: [{ name: 'photo', valueAttachment }],
});
const run = (body: unknown) => photoDataMatchesSize.run(respondedExchange({ body }));

describe('decodeBase64Strict', () => {
  it('decodes canonical base64, allowing whitespace between characters', () => {
    expect(decodeBase64Strict('aGVsbG8=')?.toString()).toBe('hello');
    expect(decodeBase64Strict('aGVs\r\nbG8=')?.toString()).toBe('hello');
    expect(decodeBase64Strict('')?.length).toBe(0);
  });

  it('handles megabytes of data without overflowing', () => {
    const data = Buffer.alloc(8_000_000, 7).toString('base64');
    expect(decodeBase64Strict(data)?.length).toBe(8_000_000);
    expect(decodeBase64Strict(`${data.slice(0, -4)}AA=A`)).toBeUndefined();
  });

  it.each(['aGVsbG8', 'aGVsbG8==', 'aGV=sbG8', 'aGVs*G8=', 'a-_b', '====', 'aGVsbG8=\u0000', 'aGVsbG8=aGVs'])(
    'refuses %j',
    (text) => {
      expect(decodeBase64Strict(text)).toBeUndefined();
    },
  );
});

describe('photoDataMatchesSize', () => {
  it.each([
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['image/gif', GIF],
    ['IMAGE/PNG; q=1', PNG],
    ['image/webp', Buffer.from('RIFF....WEBP')],
    [undefined, Buffer.from('anything')],
  ])('passes %s data of the stated size', (type, bytes) => {
    expect(run(photo(attachment(bytes, type))).outcome).toBe('pass');
  });

  it('passes with a message naming size and type', () => {
    expect(run(photo(attachment(PNG, 'image/png'))).message).toBe('16 bytes of image/png');
  });

  it('fails when the decoded size differs from size', () => {
    expect(run(photo(attachment(PNG, 'image/png', { size: 17 }))).message).toBe(
      'Expected valueAttachment data of size bytes matching contentType, received 16 decoded bytes for size 17',
    );
    expect(run(photo(attachment(Buffer.from('abc'), 'image/webp', { size: 4 }))).outcome).toBe('fail');
  });

  it('fails on data of another type than contentType', () => {
    expect(run(photo(attachment(JPEG, 'image/png'))).message).toBe(
      'Expected valueAttachment data of size bytes matching contentType, received data starting ff d8 ff e0 00 10 4a 46 for contentType "image/png"',
    );
    expect(run(photo(attachment(PNG, 'image/gif'))).outcome).toBe('fail');
    expect(run(photo(attachment(Buffer.alloc(0), 'image/jpeg'))).message).toMatch(/data starting <no bytes>/);
  });

  it('fails on data that is not strict base64', () => {
    const jpeg = attachment(JPEG, 'image/jpeg');
    expect(jpeg.data).toBe('/9j/4AAQSkZJRg==');
    expect(run(photo(jpeg)).outcome).toBe('pass');
    const broken = [
      jpeg.data.replace(/=+$/, ''),
      jpeg.data.replace(/=$/, ''),
      `${jpeg.data}=`,
      jpeg.data.replace(/\//g, '_'),
      `!${jpeg.data}`,
      `${jpeg.data}AAAA`,
      42,
      null,
    ];
    for (const data of broken) expect(run(photo({ ...jpeg, data })).outcome).toBe('fail');
  });

  it('fails on a bad size or a missing attachment', () => {
    const png = attachment(PNG, 'image/png');
    for (const size of ['16', 16.5, -1, undefined, null]) expect(run(photo({ ...png, size })).outcome).toBe('fail');
    expect(run(photo(undefined)).message).toBe(
      'Expected valueAttachment data of size bytes matching contentType, received valueAttachment <absent>',
    );
    expect(run(photo('x')).outcome).toBe('fail');
  });

  it('judges every photo parameter', () => {
    const body = {
      resourceType: 'Parameters',
      parameter: [
        { name: 'other' },
        { name: 'photo', valueAttachment: attachment(PNG, 'image/png') },
        { name: 'photo', valueAttachment: attachment(PNG, 'image/jpeg') },
      ],
    };
    expect(run(body).message).toMatch(/\(photo 2 of 2\)$/);
  });

  it('fails without a photo parameter or on another resource', () => {
    expect(run({ resourceType: 'Parameters', parameter: [{ name: 'picture' }] }).message).toBe(
      'Expected a parameter named photo, received none',
    );
    expect(run({ resourceType: 'Parameters' }).message).toBe(
      'Expected a parameter named photo, received parameter <absent>',
    );
    expect(run({ resourceType: 'Binary', data: 'x' }).message).toBe(
      'Expected a Parameters resource, received resourceType "Binary"',
    );
    expect(run('').outcome).toBe('fail');
    expect(photoDataMatchesSize.run(respondedExchange({ body: '{"parameter":', truncated: true })).outcome).toBe(
      'skip',
    );
  });
});
