import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_PROJECT_NAME_LENGTH,
  PROJECT_FILES,
  createProject,
  droppedPositionsNote,
  isProjectFileName,
  normalizeProjectName,
  projectHash,
  readLayout,
} from './project.ts';

describe('PROJECT_FILES', () => {
  it('lists the six files of DESIGN.md once each, prompt first', () => {
    expect(PROJECT_FILES.map((f) => f.name)).toEqual([
      'agent.md',
      'policies.yaml',
      'tools.yaml',
      'database.yaml',
      'rules.yaml',
      'scenarios.yaml',
    ]);
  });

  it('gives each file the language its extension implies', () => {
    for (const file of PROJECT_FILES) {
      expect(file.language).toBe(file.name.endsWith('.md') ? 'markdown' : 'yaml');
    }
  });
});

describe('createProject', () => {
  it('fills every file and titles the prompt with the project name', () => {
    const project = createProject('  Airline   desk ');
    expect(project.name).toBe('Airline desk');
    expect(Object.keys(project.files).sort()).toEqual(PROJECT_FILES.map((f) => f.name).sort());
    expect(project.files['agent.md'].startsWith('# Airline desk\n')).toBe(true);
    for (const text of Object.values(project.files)) expect(text.endsWith('\n')).toBe(true);
  });

  it('names a project with a blank name "Untitled project"', () => {
    expect(createProject(' \n\t').name).toBe('Untitled project');
  });
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('normalizeProjectName', () => {
  it('is idempotent, bounded, and never returns blank or padded names', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: 'grapheme' }), (raw) => {
        const name = normalizeProjectName(raw);
        if (name === undefined) {
          expect(raw.trim()).toBe('');
          return;
        }
        expect(name.length).toBeGreaterThan(0);
        expect(Array.from(name).length).toBeLessThanOrEqual(MAX_PROJECT_NAME_LENGTH);
        expect(name).not.toMatch(LONE_SURROGATE);
        expect(name).toBe(name.trim());
        expect(name).not.toMatch(/\s{2}/);
        expect(normalizeProjectName(name)).toBe(name);
      }),
    );
  });
});

describe('isProjectFileName', () => {
  it('accepts the six names and nothing else', () => {
    for (const file of PROJECT_FILES) expect(isProjectFileName(file.name)).toBe(true);
    for (const other of ['agent.MD', 'policies.yml', '', '../agent.md', 'notes.txt']) {
      expect(isProjectFileName(other)).toBe(false);
    }
  });
});

describe('readLayout', () => {
  it('drops positions too far out to draw (1e308 made every size Infinity), and counts them', () => {
    const { layout, dropped } = readLayout({
      far: { x: 1e308, y: 0 },
      edge: { x: -1_000_000, y: 1_000_000 },
      past: { x: 1_000_001, y: 0 },
      near: { x: 12.5, y: -40 },
    });
    expect(layout).toEqual({ edge: { x: -1_000_000, y: 1_000_000 }, near: { x: 12.5, y: -40 } });
    expect(dropped).toBe(2);
    expect(droppedPositionsNote(dropped, 'layout.json')).toBe(
      '2 graph positions were in layout.json not two numbers within ±1,000,000 and were left out.',
    );
  });
});

describe('projectHash', () => {
  /** The hash as first written (one string per character): runs saved since carry its values. */
  const asFirstWritten = (files: Record<string, string>) => {
    let hash = 0x811c9dc5;
    for (const [name, text] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
      for (const char of `${name}\n${text}\n`) {
        hash ^= char.codePointAt(0) ?? 0;
        hash = Math.imul(hash, 0x01000193) >>> 0;
      }
    }
    return hash.toString(16).padStart(8, '0');
  };
  // Code points past U+FFFF (surrogate pairs) and lone surrogates, as pasted text can hold.
  const text = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({ unit: fc.constantFrom('a', '\n', '😀', '\ud83d', '\ude00', 'é') }),
  );

  it('gives the value it always gave, for any files', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), text), (files) => {
        expect(projectHash(files)).toBe(asFirstWritten(files));
      }),
      { numRuns: 300 },
    );
  });

  it('tells texts apart that differ in one code point, and not by where the files are cut', () => {
    expect(projectHash({ 'agent.md': 'a😀' })).not.toBe(projectHash({ 'agent.md': 'a😁' }));
    expect(projectHash({ 'agent.md': 'ab', 'rules.yaml': '' })).not.toBe(
      projectHash({ 'agent.md': 'a', 'rules.yaml': 'b' }),
    );
  });
});
