import { describe, expect, it } from 'vitest';
import {
  LATER_LIBRARIES,
  initialChunkFiles,
  languageWorkers,
  librariesIn,
  missingStubs,
  stubParts,
} from './bundleSize.js';

describe('initialChunkFiles', () => {
  it('follows static imports from the entry and skips dynamic ones', () => {
    const manifest = {
      'index.html': {
        file: 'assets/index.js',
        isEntry: true,
        imports: ['_shared.js'],
        dynamicImports: ['src/Editor.tsx'],
      },
      '_shared.js': { file: 'assets/shared.js', imports: ['_react.js'] },
      '_react.js': { file: 'assets/react.js', imports: ['_shared.js'] },
      'src/Editor.tsx': { file: 'assets/Editor.js', imports: ['_monaco.js'] },
      '_monaco.js': { file: 'assets/monaco.js' },
    };
    expect(initialChunkFiles(manifest)).toEqual([
      'assets/index.js',
      'assets/shared.js',
      'assets/react.js',
    ]);
  });

  it('refuses a manifest that points at a chunk it lacks', () => {
    expect(() =>
      initialChunkFiles({ 'index.html': { file: 'a.js', isEntry: true, imports: ['_gone.js'] } }),
    ).toThrow(/_gone\.js/);
  });
});

describe('languageWorkers', () => {
  it("finds Monaco's TypeScript, CSS, HTML and JSON workers among a build's files", () => {
    expect(
      languageWorkers([
        'assets/ts.worker-CVbFdYz4.js',
        'assets/css.worker-DA-Gmr7e.js',
        'assets/html.worker-DNu74flJ.js',
        'assets/json.worker-BfeARH1Q.js',
        'json.worker.js',
      ]),
    ).toEqual([
      'assets/ts.worker-CVbFdYz4.js',
      'assets/css.worker-DA-Gmr7e.js',
      'assets/html.worker-DNu74flJ.js',
      'assets/json.worker-BfeARH1Q.js',
      'json.worker.js',
    ]);
  });

  it("leaves the editor's worker and PolicyLab's own workers alone", () => {
    expect(
      languageWorkers([
        'assets/editor.worker-CX7Cj20z.js',
        'assets/analysis.worker-DOzpzecx.js',
        'assets/layout.worker-wfXaH4D7.js',
        'assets/simulation.worker-GC1mOjk_.js',
        'assets/parseProject-CTU2aoKU.js',
        'examples/airline/tools.yaml',
        'assets/posts.worker-x.js',
      ]),
    ).toEqual([]);
  });
});

describe('stubParts', () => {
  it("reads the part each stub's error names", () => {
    const diff = `export const DiffEditorWidget = leftOutClass("Monaco's diff editor");`;
    const quick = `const QUICK_INPUT = "Monaco's quick input (command palette and pickers)";`;
    expect(stubParts([diff, quick, 'export function leftOut(part: string) {}'])).toEqual([
      "Monaco's diff editor",
      "Monaco's quick input (command palette and pickers)",
    ]);
  });
});

describe('missingStubs', () => {
  const parts = ["Monaco's diff editor", "Monaco's GPU rendering"];

  it('finds nothing missing when every stub names its part in the code', () => {
    const code = `throw new Error("Monaco's diff editor is left out");x(\`Monaco's GPU rendering\`)`;
    expect(missingStubs(parts, code)).toEqual([]);
  });

  it("names the part whose stub is not in the code: Monaco's own module is back", () => {
    expect(missingStubs(parts, `class DiffEditorWidget{};x("Monaco's GPU rendering")`)).toEqual([
      "Monaco's diff editor",
    ]);
  });
});

describe('librariesIn', () => {
  it('names each library whose marker is in the code, and no other', () => {
    const code = 'var a={strictSchema:!0};class b extends Error{name="YAMLParseError"}';
    expect(librariesIn(LATER_LIBRARIES, code)).toEqual([
      'ajv (schema validation)',
      'yaml (the format parser)',
    ]);
    expect(librariesIn(LATER_LIBRARIES, 'const x = 1;')).toEqual([]);
  });
});
