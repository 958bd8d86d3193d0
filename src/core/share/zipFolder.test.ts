import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ARCHIVE_LIMITS } from './archive.ts';
import { openZipFolder } from './zipFolder.ts';

const text = new TextDecoder();

describe('openZipFolder', () => {
  it('lists a zip’s files with their folders and unpacks one when asked', () => {
    const zip = zipSync({
      'retail/data/policy.md': strToU8('# Policy\n'),
      'retail/src/tools.py': strToU8('x = 1\n'),
      'retail/.DS_Store': strToU8('litter'),
      '__MACOSX/retail/._policy.md': strToU8('litter'),
    });
    const folder = openZipFolder(zip);
    if ('error' in folder) throw new Error(folder.error);
    expect([...folder.paths].sort()).toEqual(['retail/data/policy.md', 'retail/src/tools.py']);
    const read = folder.read('retail/data/policy.md');
    expect(read instanceof Uint8Array ? text.decode(read) : read).toBe('# Policy\n');
    expect(folder.read('retail/missing.md')).toEqual({
      error: expect.stringContaining('is not in this zip') as string,
    });
  });

  it('never lists a name that climbs out of the folder or starts at the root', () => {
    const zip = zipSync({
      '../evil.md': strToU8('x'),
      '/abs.md': strToU8('x'),
      'a//b.md': strToU8('x'),
      'ok/./c.md': strToU8('x'),
      'fine.md': strToU8('x'),
    });
    const folder = openZipFolder(zip);
    if ('error' in folder) throw new Error(folder.error);
    expect(folder.paths).toEqual(['fine.md']);
  });

  it('stops unpacking once the files read pass the limit together', () => {
    const big = new Uint8Array(ARCHIVE_LIMITS.maxProjectBytes / 2 + 1);
    const folder = openZipFolder(zipSync({ 'a.json': big, 'b.json': big }, { level: 0 }));
    if ('error' in folder) throw new Error(folder.error);
    const said = (read: Uint8Array | { error: string }) =>
      read instanceof Uint8Array ? `${read.length} bytes` : read.error;
    expect(said(folder.read('a.json'))).toBe(`${big.length} bytes`);
    expect(said(folder.read('b.json'))).toContain('more than PolicyLab’s limit');
  });

  it('says in words when the bytes are no zip', () => {
    expect(openZipFolder(strToU8('PK but not really'))).toEqual({
      error: expect.stringContaining('not a zip file') as string,
    });
  });
});
