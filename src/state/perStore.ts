/**
 * Memoised selectors made once per store, when something first asks for them: each store keeps
 * its own memory (two stores never overwrite each other's last answer), and a feature's
 * selectors load with that feature's code, not with the first page.
 */
export function perStore<T>(create: () => T): (store: object) => T {
  const made = new WeakMap<object, T>();
  return (store) => {
    let selectors = made.get(store);
    if (selectors === undefined) {
      selectors = create();
      made.set(store, selectors);
    }
    return selectors;
  };
}
