import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MONACO_STUBS, MONACO_VERSION } from './monacoStubs.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ESM = path.dirname(
  path.dirname(createRequire(import.meta.url).resolve('monaco-editor/editor/editor.api')),
);

describe('MONACO_STUBS', () => {
  it('was checked against the installed monaco-editor', () => {
    const { version } = JSON.parse(readFileSync(path.join(ESM, '../../package.json'), 'utf8')) as {
      version: string;
    };
    expect(version).toBe(MONACO_VERSION);
  });

  it.each(MONACO_STUBS)('replaces $module with a stub whose error names "$part"', (stub) => {
    expect(existsSync(path.join(ESM, stub.module))).toBe(true);
    expect(readFileSync(path.join(ROOT, stub.stub), 'utf8')).toContain(JSON.stringify(stub.part));
  });

  it('lists every stub file, so none is left without its alias', () => {
    const stubs = readdirSync(path.join(ROOT, 'src/features/author/monaco/stubs'))
      .filter((f) => f.endsWith('.ts') && !/\.(d|test)\.ts$/.test(f) && f !== 'leftOut.ts')
      .map((f) => `src/features/author/monaco/stubs/${f}`);
    expect(stubs.sort()).toEqual(MONACO_STUBS.map((s) => s.stub).sort());
  });

  it("gives each stub its own part, so the size check can tell each one's absence", () => {
    const parts = MONACO_STUBS.map((s) => s.part);
    for (const part of parts) {
      expect(parts.filter((other) => other.includes(part))).toEqual([part]);
    }
  });

  it("exports from each stub every name Monaco's modules import from the module it replaces", () => {
    for (const stub of MONACO_STUBS) {
      const file = path.basename(stub.module);
      const stubSource = readFileSync(path.join(ROOT, stub.stub), 'utf8');
      for (const name of namesImportedFrom(file)) {
        expect(stubSource, `${stub.stub} lacks ${name}`).toMatch(
          new RegExp(`export (const|class|function) ${name}\\b`),
        );
      }
    }
  });
});

/** The names any module of monaco-editor's ESM build imports from a module of that file name. */
function namesImportedFrom(file: string): string[] {
  const names = new Set<string>();
  const pattern = new RegExp(
    `import \\{([^}]*)\\} from '[./]*[^']*/${file.replaceAll('.', '\\.')}'`,
    'g',
  );
  for (const source of monacoSources()) {
    for (const match of source.matchAll(pattern)) {
      for (const name of (match[1] ?? '').split(',')) names.add(name.trim().split(' ')[0] ?? '');
    }
  }
  names.delete('');
  return [...names];
}

let sources: string[] | undefined;
function monacoSources(): string[] {
  sources ??= readdirSync(ESM, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(path.join(ESM, f), 'utf8'));
  return sources;
}
