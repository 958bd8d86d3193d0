// The import direction of DESIGN.md is enforced by lint and by a DOM-free core tsconfig. These
// tests feed both real violations, so a config change that quietly drops a rule fails here.
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({
  // Type-aware rules need files on disk; the boundary rules do not, so lint text in place.
  overrideConfig: [tseslint.configs.disableTypeChecked],
});

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('lint keeps core pure', () => {
  const core = 'src/core/probe.ts';
  it.each([
    ["import { useState } from 'react';\nexport const x = useState;", 'no-restricted-imports'],
    ["import { create } from 'zustand';\nexport const x = create;", 'no-restricted-imports'],
    [
      "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;",
      'no-restricted-imports',
    ],
    ["import { x } from '../state/createAppStore.ts';\nexport const y = x;", 'policylab/layers'],
    [
      "import { x } from '../features/author/AuthorPane.tsx';\nexport const y = x;",
      'policylab/layers',
    ],
    ['export const r = Math.random();', 'no-restricted-properties'],
    ['export const t = Date.now();', 'no-restricted-properties'],
    ['export const d = new Date();', 'no-restricted-syntax'],
    ['export const id = setTimeout(() => undefined, 1);', 'no-restricted-globals'],
    ["export const p = fetch('https://example.com');", 'no-restricted-globals'],
    ['export const w = window.location.href;', 'no-restricted-globals'],
    ["export const s = localStorage.getItem('k');", 'no-restricted-globals'],
  ])('rejects %s', async (code, rule) => {
    expect(await ruleIds(code, core)).toContain(rule);
  });

  it('accepts pure code and imports inside core', async () => {
    const code =
      "import { createProject } from './project.ts';\nexport const p = createProject('x');\nexport const d = new Date(0);";
    expect(await ruleIds(code, core)).toEqual([]);
  });
});

describe('lint keeps the other layers in order', () => {
  it('lets only test files import the test helpers', async () => {
    const code =
      "import { renderWithStore } from '../test/renderWithStore.tsx';\nexport const r = renderWithStore;";
    expect(await ruleIds(code, 'src/app/Probe.test.tsx')).toEqual([]);
    expect(await ruleIds(code, 'src/app/Probe.tsx')).toContain('policylab/layers');
  });

  it('stops features from reaching adapters or workers past the store', async () => {
    const code =
      "import { createMemoryStore } from '../../adapters/storage/preferences.ts';\nexport const s = createMemoryStore;";
    expect(await ruleIds(code, 'src/features/author/Probe.tsx')).toContain('policylab/layers');
  });

  it('stops state from importing features, and adapters from importing state', async () => {
    const fromState =
      "import { AuthorPane } from '../features/author/AuthorPane.tsx';\nexport const a = AuthorPane;";
    expect(await ruleIds(fromState, 'src/state/probe.ts')).toContain('policylab/layers');
    const fromAdapters =
      "import { createAppStore } from '../state/createAppStore.ts';\nexport const a = createAppStore;";
    expect(await ruleIds(fromAdapters, 'src/adapters/probe.ts')).toContain('policylab/layers');
  });

  it('lets the app import every layer below it', async () => {
    const code = [
      "import { createMemoryStore } from '../adapters/storage/preferences.ts';",
      "import { createAppStore } from '../state/createAppStore.ts';",
      "import { AuthorPane } from '../features/author/AuthorPane.tsx';",
      'export const all = [createMemoryStore, createAppStore, AuthorPane];',
    ].join('\n');
    expect(await ruleIds(code, 'src/app/probe.ts')).toEqual([]);
  });
});

describe('the core tsconfig has no DOM', () => {
  it('makes DOM and Node globals type errors in core', () => {
    const configPath = path.resolve('tsconfig.core.json');
    const parsed = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    if (!parsed) throw new Error('tsconfig.core.json could not be read');
    const probe = path.resolve('src/core/__probe__.ts');
    const source = 'export const t = document.title;\nexport const c = process.cwd();\n';
    const host = ts.createCompilerHost(parsed.options);
    const readFile = host.readFile.bind(host);
    host.readFile = (file) => (path.resolve(file) === probe ? source : readFile(file));
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (file) => path.resolve(file) === probe || fileExists(file);
    const program = ts.createProgram([probe], { ...parsed.options, noEmit: true }, host);
    const messages = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(messages.some((m) => m.includes("Cannot find name 'document'"))).toBe(true);
    expect(messages.some((m) => m.includes("Cannot find name 'process'"))).toBe(true);
  });
});
