import { describe, expect, it } from 'vitest';
import type { UnsavedEdits } from '../../core/index.ts';
import { CORRUPT_JOURNAL_ENTRIES } from '../../test/hostile/corruptUnsavedJournal.ts';
import { createWebStorageJournal } from './unsavedJournal.ts';

/** A Web Storage object in memory; `full` makes every write fail as a full quota does. */
function fakeStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  const storage = {
    full: false,
    get length() {
      return items.size;
    },
    key: (i: number) => [...items.keys()][i] ?? null,
    getItem: (key: string) => items.get(key) ?? null,
    setItem(key: string, value: string) {
      if (storage.full) throw new DOMException('full', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key: string) => void items.delete(key),
    clear: () => {
      items.clear();
    },
  };
  return storage;
}

const EDITS: UnsavedEdits = {
  projectId: 'p1',
  tab: 't1',
  name: 'Mine',
  at: '2026-01-01T00:00:00.000Z',
  files: { 'agent.md': '# Mine\n' },
  base: { 'agent.md': '0.0' },
};

describe('the journal in Web Storage', () => {
  it('keeps one entry per project and tab, read back as written, and forgets removed ones', () => {
    const storage = fakeStorage({ unrelated: 'x' });
    const journal = createWebStorageJournal(storage);
    expect(journal.write(EDITS)).toBe(true);
    expect(journal.write({ ...EDITS, tab: 't2' })).toBe(true);
    expect(journal.write({ ...EDITS, name: 'Renamed' })).toBe(true);
    expect(journal.list()).toEqual([
      { ...EDITS, name: 'Renamed' },
      { ...EDITS, tab: 't2' },
    ]);
    journal.remove('p1', 't1');
    expect(journal.list()).toEqual([{ ...EDITS, tab: 't2' }]);
    expect(storage.getItem('unrelated')).toBe('x');
  });

  it('skips entries it cannot read (hostile or damaged) and leaves them alone', () => {
    const storage = fakeStorage(CORRUPT_JOURNAL_ENTRIES);
    const journal = createWebStorageJournal(storage);
    expect(journal.write(EDITS)).toBe(true);
    expect(journal.list()).toEqual([EDITS]);
    expect(storage.length).toBe(Object.keys(CORRUPT_JOURNAL_ENTRIES).length + 1);
  });

  it('answers false instead of throwing when storage is full', () => {
    const storage = fakeStorage();
    storage.full = true;
    expect(createWebStorageJournal(storage).write(EDITS)).toBe(false);
  });
});
