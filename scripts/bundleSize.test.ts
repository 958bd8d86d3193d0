import { describe, expect, it } from 'vitest';
import { initialChunkFiles } from './bundleSize.js';

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
