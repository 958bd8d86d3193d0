import fc from 'fast-check';
import type { GraphLayout, Project, ProjectFileName } from '../project.ts';
import { MAX_LAYOUT_COORDINATE, PROJECT_FILES, normalizeProjectName } from '../project.ts';

/*
 * fast-check arbitraries for whole projects, for the properties of anything that stores or sends
 * one (share links, zips): any text in any file, names as a person might type them, layouts with
 * keys that name Object.prototype's members.
 */

/** Short text with the characters that mean something in a URL, a fragment or the view's list. */
export const trickyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(',', ':', '&', '=', '%', '#', '?', '+', ' ', '\n', '/', '\\', '"', '.'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

/** Any text a file can hold: lone surrogates, nulls, emoji, nothing at all. */
const fileText = fc.oneof(
  fc.constant(''),
  fc.string({ unit: 'binary', maxLength: 3000 }),
  fc.string({ unit: 'grapheme', maxLength: 500 }),
  trickyText,
  // Lone surrogates, which UTF-8 cannot hold, and NUL: 'binary' draws them too rarely to count on.
  fc.string({ unit: fc.constantFrom('\uD800', '\uDFFF', '\uDBFF\uDC00', '\u0000', 'a', '\n') }),
);

const coordinate = fc
  .double({ noNaN: true, min: -MAX_LAYOUT_COORDINATE, max: MAX_LAYOUT_COORDINATE })
  .map((n) => (n === 0 ? 0 : n));

const layout: fc.Arbitrary<GraphLayout> = fc.dictionary(
  fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString')),
  fc.record({ x: coordinate, y: coordinate }),
  { noNullPrototype: true, maxKeys: 20 },
);

/** Any project: a cleaned name, any six texts, and maybe a layout. */
export const arbitraryProject: fc.Arbitrary<Project> = fc
  .record(
    {
      name: fc.string({ unit: 'grapheme', maxLength: 100 }),
      files: fc.tuple(...PROJECT_FILES.map(() => fileText)),
      layout,
    },
    { requiredKeys: ['name', 'files'] },
  )
  .map(({ name, files, layout: placed }) => ({
    name: normalizeProjectName(name) ?? 'Untitled project',
    files: Object.fromEntries(PROJECT_FILES.map((f, i) => [f.name, files[i] ?? ''])) as Record<
      ProjectFileName,
      string
    >,
    ...(placed === undefined ? {} : { layout: placed }),
  }));
