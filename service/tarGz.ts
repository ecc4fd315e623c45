/**
 * A signed report folder as one download: a gzipped POSIX tar (ustar) of plain files under one
 * folder, what `tar -xzf` unpacks and `conformance verify-report` then checks. Written here with
 * node:zlib (a few header fields), not with a dependency: the files are few, small and flat.
 */
import { gzipSync } from 'node:zlib';

const BLOCK = 512;

function header(name: string, size: number, mtime: Date, type: '0' | '5'): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`A tar entry name is 100 bytes at most: ${name}`);
  const h = Buffer.alloc(BLOCK);
  const field = (offset: number, length: number, value: string) => h.write(value, offset, length, 'utf8');
  const octal = (offset: number, length: number, value: number) =>
    field(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
  field(0, 100, name);
  octal(100, 8, type === '5' ? 0o755 : 0o644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, size);
  octal(136, 12, Math.floor(mtime.getTime() / 1000));
  field(148, 8, '        ');
  field(156, 1, type);
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  let sum = 0;
  for (const byte of h) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/** The files, by name, in `folder/` of a .tar.gz. */
export function tarGz(folder: string, files: Record<string, string>, mtime: Date): Buffer {
  const parts: Buffer[] = [header(`${folder}/`, 0, mtime, '5')];
  for (const [name, content] of Object.entries(files)) {
    const body = Buffer.from(content, 'utf8');
    parts.push(header(`${folder}/${name}`, body.length, mtime, '0'), body);
    const pad = (BLOCK - (body.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return gzipSync(Buffer.concat(parts));
}
