import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_FILES } from '../core/index.ts';
import { EXIT, runCli } from './main.ts';

function capture(argv: string[]) {
  let out = '';
  let err = '';
  const code = runCli(argv, '9.8.7', {
    out: (t) => (out += t),
    err: (t) => (err += t),
  });
  return { code, out, err };
}

describe('runCli', () => {
  it('prints the version it is given', () => {
    expect(capture(['--version'])).toEqual({ code: EXIT.ok, out: '9.8.7\n', err: '' });
    expect(capture(['-v']).out).toBe('9.8.7\n');
  });

  it('prints help, listing every project file from core, with no arguments or --help', () => {
    for (const argv of [[], ['--help'], ['-h']]) {
      const { code, out } = capture(argv);
      expect(code).toBe(EXIT.ok);
      expect(out).toContain('Usage:');
      for (const file of PROJECT_FILES) expect(out).toContain(file.name);
    }
  });

  it('rejects unknown options and commands with exit 2 and a pointer to --help', () => {
    for (const argv of [['--frobnicate'], ['launch']]) {
      const { code, out, err } = capture(argv);
      expect(code).toBe(EXIT.usage);
      expect(out).toBe('');
      expect(err).toMatch(/policylab: unknown (option|command)/i);
      expect(err).toContain('policylab --help');
    }
  });
});

describe('bin/policylab.js', () => {
  it('runs as a real process and prints the version from package.json', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const { stdout } = await promisify(execFile)(process.execPath, ['bin/policylab.js', '-v']);
    expect(stdout).toBe(`${version}\n`);
  });
});
