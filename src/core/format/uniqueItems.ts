// JSON Schema's `uniqueItems` compares every item with every other: Ajv took 3.8 s on 20,000
// distinct `{a: i}` items, and a model's tool arguments of about 60,000 small objects fit in one
// answer (200,000 characters). A list longer than `MAX_UNIQUE_ITEMS` under a schema that says
// `uniqueItems` is refused before Ajv sees it.

/** The longest list checked for `uniqueItems` (about 30 ms in Ajv for distinct objects). */
export const MAX_UNIQUE_ITEMS = 1000;

const saysUnique = new WeakMap<object, boolean>();

/** Whether a JSON Schema says `uniqueItems: true` anywhere in it. */
export function mentionsUniqueItems(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const known = saysUnique.get(schema);
  if (known !== undefined) return known;
  const found = Object.entries(schema).some(
    ([key, value]) => (key === 'uniqueItems' && value === true) || mentionsUniqueItems(value),
  );
  saysUnique.set(schema, found);
  return found;
}

/**
 * Why a value cannot be checked against a schema that says `uniqueItems`: a list in it longer than
 * `MAX_UNIQUE_ITEMS` (the first found, with where it is); undefined when there is none or the
 * schema does not say `uniqueItems`.
 */
export function uniqueItemsProblem(schema: unknown, value: unknown): string | undefined {
  if (!mentionsUniqueItems(schema)) return undefined;
  const stack: { value: unknown; at: string }[] = [{ value, at: '' }];
  while (stack.length > 0) {
    const { value: here, at } = stack.pop() as { value: unknown; at: string };
    if (Array.isArray(here)) {
      if (here.length > MAX_UNIQUE_ITEMS)
        return `${at === '' ? 'the list' : `"${at}"`} has ${here.length.toLocaleString('en-US')} items, more than the ${MAX_UNIQUE_ITEMS.toLocaleString('en-US')} a list whose items must be unique is checked for`;
      here.forEach((item, i) => stack.push({ value: item, at: `${at}[${i}]` }));
    } else if (typeof here === 'object' && here !== null) {
      for (const [key, item] of Object.entries(here))
        stack.push({ value: item, at: at === '' ? key : `${at}.${key}` });
    }
  }
  return undefined;
}
