import type { KeyValueStore } from '../../core/index.ts';

/** What a failed write looked like, for the UI to tell the user once. */
export interface StorageProblem {
  readonly key: string;
  readonly reason: 'full' | 'unavailable';
}

/**
 * Wraps a Web Storage object (normally `localStorage`) so that reads and writes never throw:
 * private browsing, disabled storage and a full quota degrade to "not remembered" and are
 * reported through `onProblem` instead of breaking the page.
 */
export function createWebStorageStore(
  storage: Storage | undefined,
  onProblem: (problem: StorageProblem) => void = () => undefined,
): KeyValueStore {
  if (storage === undefined) return createMemoryStore();
  return {
    getItem(key) {
      try {
        return storage.getItem(key);
      } catch {
        onProblem({ key, reason: 'unavailable' });
        return null;
      }
    },
    setItem(key, value) {
      try {
        storage.setItem(key, value);
      } catch (error) {
        onProblem({ key, reason: isQuotaError(error) ? 'full' : 'unavailable' });
      }
    },
    removeItem(key) {
      try {
        storage.removeItem(key);
      } catch {
        onProblem({ key, reason: 'unavailable' });
      }
    },
  };
}

/** A store that lives in memory only: for tests, and when the browser offers no storage. */
export function createMemoryStore(initial: Record<string, string> = {}): KeyValueStore {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

function isQuotaError(error: unknown): boolean {
  return (
    error instanceof DOMException &&
    (error.name === 'QuotaExceededError' || error.name === 'NS_ERROR_DOM_QUOTA_REACHED')
  );
}

/** Returns `window.localStorage`, or `undefined` where merely touching it throws. */
export function browserLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
