import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProjectFileName } from './project.ts';
import { PROJECT_FILES } from './project.ts';
import {
  fingerprint,
  mergeExtras,
  mergeFiles,
  readTabMessage,
  readUnsavedEdits,
  recoverEdits,
  unsavedEdits,
} from './unsaved.ts';

type Files = Record<ProjectFileName, string>;
const NAMES = PROJECT_FILES.map((f) => f.name);
// Few distinct texts, so that sides often agree by chance as well as differ.
const text = fc.constantFrom('', 'a', 'b', 'c\n', 'policies: []\n');
const files = fc.record(
  Object.fromEntries(NAMES.map((n) => [n, text])) as Record<ProjectFileName, fc.Arbitrary<string>>,
);
const WHO = { projectId: 'p1', tab: 't1', at: '2026-01-01T00:00:00.000Z' };

describe('mergeFiles', () => {
  it('takes each side’s change, and reports a conflict exactly where both changed one file apart', () => {
    fc.assert(
      fc.property(files, files, files, (base, ours, theirs) => {
        const { files: merged, conflicts } = mergeFiles(base, ours, theirs);
        for (const name of NAMES) {
          const both = ours[name] !== base[name] && theirs[name] !== base[name];
          expect(conflicts.includes(name)).toBe(both && ours[name] !== theirs[name]);
          if (ours[name] !== base[name]) expect(merged[name]).toBe(ours[name]);
          else expect(merged[name]).toBe(theirs[name]);
        }
      }),
    );
  });

  it('changes nothing of ours when the other side did not move', () => {
    fc.assert(
      fc.property(files, files, (base, ours) => {
        expect(mergeFiles(base, ours, base)).toEqual({ files: ours, conflicts: [] });
      }),
    );
  });
});

describe('unsaved edits', () => {
  it('hold exactly the changed files, and put back onto the saved text give the typed text', () => {
    fc.assert(
      fc.property(files, files, (saved, typed) => {
        const edits = unsavedEdits(WHO, 'Mine', typed, saved);
        const changed = NAMES.filter((n) => typed[n] !== saved[n]);
        if (!edits) {
          expect(changed).toEqual([]);
          return;
        }
        expect(Object.keys(edits.files).sort()).toEqual([...changed].sort());
        const recovery = recoverEdits(saved, edits);
        expect(recovery).toEqual({ files: typed, changed: true, conflicts: [] });
      }),
    );
  });

  it('put back onto a text another tab changed since: that file is a conflict', () => {
    const saved = { ...emptyFiles(), 'agent.md': 'old' };
    const edits = edited(saved, { ...saved, 'agent.md': 'mine' });
    const recovery = recoverEdits({ ...saved, 'agent.md': 'theirs' }, edits);
    expect(recovery.conflicts).toEqual(['agent.md']);
    expect(recovery.files['agent.md']).toBe('mine');
  });

  it('already in the store: nothing to put back', () => {
    const saved = emptyFiles();
    const edits = edited(saved, { ...saved, 'rules.yaml': 'x' });
    expect(recoverEdits({ ...saved, 'rules.yaml': 'x' }, edits)).toMatchObject({
      changed: false,
      conflicts: [],
    });
  });

  it('read back from storage as written; anything else is refused without throwing', () => {
    fc.assert(
      fc.property(files, files, (saved, typed) => {
        const edits = unsavedEdits(WHO, 'Mine', typed, saved);
        if (edits) expect(readUnsavedEdits(JSON.parse(JSON.stringify(edits)))).toEqual(edits);
      }),
    );
    // Positions moved with no file typed are edits too; ones that are not finite are dropped.
    const moved = unsavedEdits(WHO, 'Mine', emptyFiles(), emptyFiles(), {
      now: { a: { x: 1, y: 2 } },
      saved: undefined,
    });
    expect(moved).toMatchObject({ files: {}, layout: { a: { x: 1, y: 2 } } });
    expect(readUnsavedEdits(JSON.parse(JSON.stringify(moved)))).toEqual(moved);
    // A save under way: the text it writes is this tab's own, read back with the edits.
    const saving = { ...emptyFiles(), 'agent.md': 'half' };
    const during = unsavedEdits(
      WHO,
      'Mine',
      { ...emptyFiles(), 'agent.md': 'half typed' },
      emptyFiles(),
      undefined,
      saving,
    );
    expect(during?.pending).toEqual({ 'agent.md': fingerprint('half') });
    expect(readUnsavedEdits(JSON.parse(JSON.stringify(during)))).toEqual(during);
    expect(
      readUnsavedEdits({ ...moved, layout: { a: { x: 1, y: 2 }, b: { x: 'Infinity', y: 0 } } })
        ?.layout,
    ).toEqual({ a: { x: 1, y: 2 } });
    const same = { a: { x: 1, y: 2 } };
    expect(unsavedEdits(WHO, 'Mine', emptyFiles(), emptyFiles(), { now: same, saved: same })).toBe(
      undefined,
    );
    fc.assert(
      fc.property(fc.jsonValue(), (junk) => {
        expect(() => readUnsavedEdits(junk)).not.toThrow();
      }),
    );
    const good = edited(emptyFiles(), { ...emptyFiles(), 'agent.md': 'x' });
    for (const bad of [
      null,
      [],
      { ...good, files: { 'agent.md': 3 } },
      { ...good, files: { 'evil.js': 'x' }, base: { 'evil.js': 'x' } },
      { ...good, base: {} },
      { ...good, tab: 7 },
      JSON.parse('{"__proto__": {"polluted": true}}'),
    ]) {
      expect(readUnsavedEdits(bad)).toBeUndefined();
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('fingerprint and tab messages', () => {
  it('fingerprints tell texts apart', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(fingerprint(a) === fingerprint(b)).toBe(a === b);
      }),
    );
    // Every text of four letters from a small alphabet: same length, often the same letters.
    const letters = ['a', 'b', 'c', 'd', 'e', 'f'];
    const texts = letters.flatMap((a) =>
      letters.flatMap((b) => letters.flatMap((c) => letters.map((d) => a + b + c + d))),
    );
    expect(new Set(texts.map(fingerprint)).size).toBe(texts.length);
  });

  it('a message from another tab is read only in its shape', () => {
    expect(readTabMessage({ kind: 'saved', projectId: 'p', tab: 't' })).toEqual({
      kind: 'saved',
      projectId: 'p',
      tab: 't',
    });
    for (const bad of [null, 'saved', { kind: 'saved', projectId: 1, tab: 't' }, { kind: 'x' }]) {
      expect(readTabMessage(bad)).toBeUndefined();
    }
  });
});

function emptyFiles(): Files {
  return Object.fromEntries(NAMES.map((n) => [n, ''])) as Files;
}

function edited(saved: Files, typed: Files) {
  const edits = unsavedEdits(WHO, 'Mine', typed, saved);
  if (!edits) throw new Error('Nothing was edited.');
  return edits;
}

describe('mergeExtras', () => {
  const at = (x: number) => ({ x, y: x });
  const extras = (name: string, layout?: Record<string, { x: number; y: number }>) => ({
    name,
    layout,
  });

  it('takes the other side’s rename and moves only where this side changed nothing', () => {
    const base = extras('Desk', { a: at(1), b: at(1) });
    const merged = mergeExtras(
      base,
      extras('Desk', { a: at(2), b: at(1) }),
      extras('Refunds', { a: at(1), b: at(3), c: at(4) }),
    );
    expect(merged).toEqual({
      name: 'Refunds',
      layout: { a: at(2), b: at(3), c: at(4) },
      tookName: true,
      tookPositions: ['b', 'c'],
    });
  });

  it('keeps this side’s rename and moves over the other’s, and takes the other’s removals', () => {
    const base = extras('Desk', { a: at(1), b: at(1) });
    const merged = mergeExtras(base, extras('Mine', { a: at(5), b: at(1) }), extras('Theirs'));
    expect(merged).toEqual({
      name: 'Mine',
      layout: { a: at(5) },
      tookName: false,
      tookPositions: ['b'],
    });
    expect(mergeExtras(base, base, extras('Desk')).layout).toBeUndefined();
  });

  it('is the identity when the other side changed nothing, and takes everything when this side did not', () => {
    const layout = fc.dictionary(
      fc.constantFrom('a', 'b', 'c', 'd'),
      fc.record({ x: fc.integer({ min: -5, max: 5 }), y: fc.integer({ min: -5, max: 5 }) }),
    );
    const side = fc.record({
      name: fc.constantFrom('N', 'M'),
      layout: fc.option(layout, { nil: undefined }),
    });
    fc.assert(
      fc.property(side, side, (base, ours) => {
        const kept = mergeExtras(base, ours, base);
        expect(kept.name).toBe(ours.name);
        expect(kept.layout).toBe(ours.layout);
        expect(kept.tookPositions).toEqual([]);
        const taken = mergeExtras(base, base, ours);
        expect(taken.name).toBe(ours.name);
        expect(taken.layout ?? {}).toEqual(ours.layout ?? {});
      }),
    );
  });
});
