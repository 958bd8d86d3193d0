import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Test files share their worker's module cache (vitest.config.ts, `isolate: false`), so what one
 * file changes in a shared module or global must not reach the next. Spies and stubbed globals
 * are undone by the config; these rules cover the rest.
 */

const ROOT = join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The rules a shared-cache test file breaks, as messages naming the file. */
export function isolationProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  const isolated = /\.isolated\.test\.tsx?$/.test(file);
  if (/\bvi\.(do)?mock\(/.test(text) && !isolated) {
    problems.push(
      `${file} mocks a module: name it *.isolated.test.ts so it gets a module cache of its own`,
    );
  }
  if (/\bvi\.useFakeTimers\(/.test(text) && !/\bvi\.useRealTimers\(/.test(text)) {
    problems.push(`${file} fakes timers and never restores them (vi.useRealTimers)`);
  }
  return problems;
}

describe('test files that share a module cache', () => {
  it('keep what they change to themselves', () => {
    // This file names the calls in its own examples, so it is left out.
    const files = [...testFiles(join(ROOT, 'src')), ...testFiles(join(ROOT, 'scripts'))].filter(
      (path) => path !== import.meta.filename,
    );
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((path) =>
      isolationProblems(relative(ROOT, path), readFileSync(path, 'utf8')),
    );
    expect(problems).toEqual([]);
  });

  it('name a file that mocks a module, or fakes timers without restoring them', () => {
    expect(isolationProblems('src/a.test.ts', "vi.mock('./b.ts');")).toHaveLength(1);
    expect(isolationProblems('src/a.isolated.test.ts', "vi.mock('./b.ts');")).toEqual([]);
    expect(isolationProblems('src/a.test.ts', 'vi.useFakeTimers();')).toHaveLength(1);
    expect(
      isolationProblems(
        'src/a.test.ts',
        'vi.useFakeTimers(); afterEach(() => vi.useRealTimers());',
      ),
    ).toEqual([]);
  });
});
