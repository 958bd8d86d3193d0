/**
 * A small string key-value store, the shape of the Web Storage API's read and write methods.
 * Core and state use it for preferences; adapters back it with localStorage or memory.
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
