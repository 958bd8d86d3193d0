import { ENDLESS_CONDITION } from './patternInputs.ts';

/*
 * CEL conditions that compute for minutes to centuries, one per shape of work: what the CEL step
 * budget (core/celMeter.ts) must stop, in milliseconds, with a message naming the limit.
 */

/** A condition whose work has no practical end, and the arguments it reads. */
export interface CelBomb {
  readonly name: string;
  readonly condition: string;
  readonly args: () => Readonly<Record<string, unknown>>;
}

/** 30,000 distinct short strings: a model's list argument that fits in one answer. */
const manyIds = (count = 30_000): string[] => Array.from({ length: count }, (_, i) => `x${i}`);

/** One bomb per shape: nested comprehensions, range, map of range, a loop over arguments. */
export const CEL_BOMBS: readonly CelBomb[] = [
  { name: 'nested comprehensions', condition: ENDLESS_CONDITION, args: () => ({}) },
  // Few steps, but each builds a list of 100,000: only range's own charge stops it.
  {
    name: 'range in a loop',
    condition: 'range(100000).all(i, size(range(100000)) > 0)',
    args: () => ({}),
  },
  {
    name: 'map of range',
    condition: 'size(range(100000).map(i, range(100000))) > 0',
    args: () => ({}),
  },
  {
    name: 'nested loops over a model’s list',
    condition: 'args.ids.all(a, args.ids.exists(b, b == a))',
    args: () => ({ ids: manyIds() }),
  },
];

/**
 * A tool whose effect runs once per item of the model's list, each run's `where` walking the
 * list again: every single evaluation stays under the budget (30,000 items), but one call makes
 * 60,000 of them (10^10 steps). The call's expressions share one budget, so the call fails.
 */
export const FOR_EACH_BOMB = {
  tool: `  - name: tag_orders
    description: Mark the listed orders refunded.
    kind: write
    parameters:
      type: object
      properties:
        ids: { type: array, items: { type: string } }
      required: [ids]
    effects:
      - update: orders
        for_each: args.ids
        as: id
        where: args.ids.exists(x, x == row.id) && row.id == id
        set: { status: '"refunded"' }
`,
  /** The model's arguments: 30,000 ids (10^10 steps), or `count` of them. */
  args: (count?: number): Readonly<Record<string, unknown>> => ({ ids: manyIds(count) }),
} as const;

/** A condition just under the budget (about 630,000 steps): each evaluation alone is allowed. */
const NEAR_BUDGET = 'range(200).all(i, range(200).all(j, i + j >= 0))';

/**
 * rules.yaml's guards for `check`'s contradiction search: eight rules of get_user, allow and
 * forbid in turn, each just under the budget: 2.4 s of `check` when each evaluation had a
 * budget of its own (the search may make up to 2,500), under 0.6 s with the search's own.
 */
export function costlyGuardRules(): string {
  const rules = Array.from({ length: 8 }, (_, i) =>
    [
      `      - id: costly-${i}`,
      '        policy: verify-identity',
      `        decision: ${i % 2 === 0 ? 'forbid' : 'allow'}`,
      `        when: '${NEAR_BUDGET} && args.user_id == "u${i}"'`,
      '        message: Costly.',
    ].join('\n'),
  );
  return `  get_user:\n    rules:\n${rules.join('\n')}\n`;
}
