import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toBundle } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { EXIT, runCli } from './main.ts';
import { terminalSafe } from './terminal.ts';

// Hostile files against the command line (issue 20): each is answered with a clear message, and
// nothing a file says is obeyed by the terminal.

function capture(argv: string[]) {
  let out = '';
  let err = '';
  const code = runCli(argv, '9.8.7', { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const folder = () => mkdtempSync(path.join(tmpdir(), 'policylab-hostile-'));
const OBEYED =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|\r(?!\n)/;

describe('the command line against hostile files', () => {
  it('prints control codes from ids and categories as visible escapes (check, graph, --dot)', () => {
    const dir = folder();
    const clear = '\u001b[2J\u001b[H0 errors';
    for (const [name, text] of Object.entries(MINI_FILES)) {
      writeFileSync(
        path.join(dir, name),
        name === 'policies.yaml'
          ? text
              .replace('id: refund-window', `id: "refund-window${clear}"`)
              .replace('category: refunds', 'category: "refunds\\r\u202Eevil"')
          : text,
      );
    }
    for (const argv of [
      ['check', dir],
      ['graph', dir],
      ['graph', dir, '--dot'],
    ]) {
      const { out, err } = capture(argv);
      const printed = out + err;
      expect(printed).not.toMatch(OBEYED);
      expect(printed).toContain('\\x1B[2J');
    }
  });

  it('writes every control character as an escape and leaves other text alone', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const safe = terminalSafe(text);
        expect(safe).not.toMatch(OBEYED);
        if (!OBEYED.test(text)) expect(safe).toBe(text);
      }),
    );
    expect(terminalSafe('a,b\r\nc\td\n')).toBe('a,b\r\nc\td\n');
    expect(terminalSafe('0 errors\rX')).toBe('0 errors\\x0DX');
  });

  it('names a folder where a project file should be, instead of a stack trace', () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'agent.md'), '# Agent\n');
    mkdirSync(path.join(dir, 'policies.yaml'));
    const { code, out, err } = capture(['check', dir]);
    expect(code).not.toBe(EXIT.ok);
    expect(err).toContain('policies.yaml is a folder, not a file.');
    expect(out + err).not.toMatch(/\n\s+at /);
  });

  it('reads a folder’s misnamed files as the files they mean, and says so', () => {
    const dir = folder();
    for (const [name, text] of Object.entries(MINI_FILES))
      writeFileSync(
        path.join(dir, name === 'agent.md' ? 'Agent.md' : name.replace('.yaml', '.yml')),
        text,
      );
    const { code, err } = capture(['check', dir]);
    expect(code).toBe(EXIT.ok);
    expect(err).toContain('"Agent.md" was read as agent.md.');
    expect(err).toContain('"policies.yml" was read as policies.yaml.');
  });

  it('reads a bundle written with a byte-order mark', () => {
    const dir = folder();
    const file = path.join(dir, 'bom.policylab.json');
    writeFileSync(file, `\uFEFF${toBundle({ name: 'Bom', files: MINI_FILES })}`);
    const { code, err } = capture(['check', file]);
    expect(err).toBe('');
    expect(code).toBe(EXIT.ok);
  });

  it('says a web page is no bundle', () => {
    const dir = folder();
    const file = path.join(dir, 'page.policylab.json');
    writeFileSync(file, '<!doctype html><html><body>Not here</body></html>');
    const { code, err } = capture(['check', file]);
    expect(code).not.toBe(EXIT.ok);
    expect(err).toContain('not a PolicyLab bundle');
  });
});
