import { describe, expect, it } from 'vitest';
import type { StorageProblem } from './preferences.ts';
import { createMemoryStore, createWebStorageStore } from './preferences.ts';

/** A Storage whose every call throws the given error, as a full or disabled localStorage does. */
function throwingStorage(error: Error): Storage {
  const fail = () => {
    throw error;
  };
  return {
    length: 0,
    clear: fail,
    key: fail,
    getItem: fail,
    setItem: fail,
    removeItem: fail,
  };
}

describe('createWebStorageStore', () => {
  it('reports a full quota as "full" instead of throwing', () => {
    const problems: StorageProblem[] = [];
    const store = createWebStorageStore(
      throwingStorage(new DOMException('quota', 'QuotaExceededError')),
      (p) => problems.push(p),
    );
    expect(() => {
      store.setItem('theme', 'dark');
    }).not.toThrow();
    expect(problems).toEqual([{ key: 'theme', reason: 'full' }]);
  });

  it('reads nothing and reports "unavailable" when storage is disabled', () => {
    const problems: StorageProblem[] = [];
    const store = createWebStorageStore(
      throwingStorage(new DOMException('no', 'SecurityError')),
      (p) => problems.push(p),
    );
    expect(store.getItem('theme')).toBeNull();
    store.removeItem('theme');
    expect(problems.map((p) => p.reason)).toEqual(['unavailable', 'unavailable']);
  });

  it('falls back to memory when there is no storage at all', () => {
    const store = createWebStorageStore(undefined);
    store.setItem('a', '1');
    expect(store.getItem('a')).toBe('1');
  });
});

describe('createMemoryStore', () => {
  it('stores, reads and removes strings', () => {
    const store = createMemoryStore({ a: '1' });
    expect(store.getItem('a')).toBe('1');
    store.setItem('b', '2');
    store.removeItem('a');
    expect([store.getItem('a'), store.getItem('b')]).toEqual([null, '2']);
  });
});
