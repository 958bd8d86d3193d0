/** One thing from the source that the project does not carry (or carries only in part). */
export interface CarryNote {
  /** The part of the project it concerns. */
  readonly file:
    'agent.md' | 'policies.yaml' | 'tools.yaml' | 'database.yaml' | 'rules.yaml' | 'scenarios.yaml';
  /** The item: `tool cancel_pending_order`, `task 12`, `table orders, column items`. */
  readonly item: string;
  /** What was not carried and what stands in for it, in plain words. */
  readonly message: string;
  /** Why a tool is left out whole (its `not_imported`): the report lists these first. */
  readonly notImported?: string;
}

/** A name PolicyLab accepts for a tool, table or column (`^[a-z][a-z0-9_]*$`). */
export function safeName(name: string, fallback = 'x'): string {
  const cleaned = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (cleaned === '') return fallback;
  return /^[a-z]/.test(cleaned) ? cleaned : `${fallback}_${cleaned}`;
}

/** A name PolicyLab accepts for a policy or scenario id (`^[a-z][a-z0-9_-]*$`). */
export function safeId(id: string, prefix: string): string {
  const cleaned = id
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return /^[a-z]/.test(cleaned) ? cleaned : `${prefix}-${cleaned || 'x'}`;
}

/** Names made unique in order: the second `a` becomes `a_2`. */
export function uniqueNames(separator = '_'): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    let candidate = name;
    for (let n = 2; used.has(candidate); n++) candidate = `${name}${separator}${n}`;
    used.add(candidate);
    return candidate;
  };
}
