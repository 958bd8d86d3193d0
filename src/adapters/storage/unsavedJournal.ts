import type { UnsavedEdits, UnsavedJournal } from '../../core/index.ts';
import { readUnsavedEdits } from '../../core/index.ts';

const PREFIX = 'policylab.unsaved.';

const keyOf = (projectId: string, tab: string) => PREFIX + JSON.stringify([projectId, tab]);

/**
 * Keeps unsaved edits in Web Storage (normally `localStorage`): its writes are synchronous, so
 * they are down before a closing page is gone, which an IndexedDB write is not. Nothing here ever
 * throws; unreadable entries are skipped (and left for a person to find).
 */
export function createWebStorageJournal(storage: Storage | undefined): UnsavedJournal {
  if (storage === undefined) return createMemoryJournal();
  return {
    list() {
      const found: UnsavedEdits[] = [];
      try {
        for (let i = 0; i < storage.length; i++) {
          const key = storage.key(i);
          if (key === null || !key.startsWith(PREFIX)) continue;
          const edits = parsed(storage.getItem(key));
          if (edits && keyOf(edits.projectId, edits.tab) === key) found.push(edits);
        }
      } catch {
        // Storage turned off or gone: there is nothing to recover from it.
      }
      return found;
    },
    write(edits) {
      try {
        storage.setItem(keyOf(edits.projectId, edits.tab), JSON.stringify(edits));
        return true;
      } catch {
        return false;
      }
    },
    remove(projectId, tab) {
      try {
        storage.removeItem(keyOf(projectId, tab));
      } catch {
        // Nothing to do: a stale entry is recovered as already saved.
      }
    },
  };
}

/** A journal in memory: for tests, and where the browser offers no storage. */
export function createMemoryJournal(initial: readonly UnsavedEdits[] = []): UnsavedJournal {
  const entries = new Map(initial.map((e) => [keyOf(e.projectId, e.tab), e]));
  return {
    list: () => [...entries.values()],
    write: (edits) => {
      entries.set(keyOf(edits.projectId, edits.tab), edits);
      return true;
    },
    remove: (projectId, tab) => void entries.delete(keyOf(projectId, tab)),
  };
}

function parsed(text: string | null): UnsavedEdits | undefined {
  if (text === null) return undefined;
  try {
    return readUnsavedEdits(JSON.parse(text));
  } catch {
    return undefined;
  }
}
