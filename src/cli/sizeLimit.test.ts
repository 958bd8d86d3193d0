import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { EXIT, runCli } from './main.ts';

function check(folder: string) {
  let out = '';
  let err = '';
  const code = runCli(['check', folder], '0.0.0', {
    out: (t) => (out += t),
    err: (t) => (err += t),
  });
  return { code, out, err };
}

describe('check on a folder with a file past the size limit', () => {
  it('says which file, how large and the limit, without reading it', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'policylab-size-'));
    for (const [name, text] of Object.entries(MINI_FILES))
      writeFileSync(path.join(folder, name), text);
    // A sparse file: as large as a real one to stat, and nothing to write.
    truncateSync(path.join(folder, 'scenarios.yaml'), 40_000_000);
    expect(check(folder)).toEqual({
      code: EXIT.usage,
      out: '',
      err: 'policylab: scenarios.yaml is 40.0 MB; PolicyLab checks files up to 12.0 MB. Nothing was checked.\n',
    });
    truncateSync(path.join(folder, 'scenarios.yaml'), MAX_FILE_BYTES);
    expect(check(folder).err).not.toMatch(/PolicyLab checks files up to/);
  });
});
