import { longId } from './checkInputs.ts';

/**
 * `files` with `count` more well-formed policies at the end of policies.yaml (60,000 add about
 * 11 MB): a project whose whole parse takes the page's thread for seconds, so Run scenarios, Play
 * and the editor's go to definition must never parse it there.
 */
export function withManyPolicies(
  files: Readonly<Record<string, string>>,
  count: number,
): Record<string, string> {
  const lines: string[] = [];
  for (let i = 0; i < count; i++)
    lines.push(
      `  - id: ${longId('extra', i)}`,
      `    text: Refund an order only to the payment method it was paid with, case ${i}.`,
      `    category: refunds`,
      `    challenge: ${(i % 5) + 1}`,
    );
  // Right after `policies:`, so a `relations:` list after the policies stays as it is.
  const policies = files['policies.yaml'] ?? 'policies:\n';
  const at = policies.search(/^policies:[ \t]*\n/m);
  const head = at < 0 ? 'policies:\n' : policies.slice(0, policies.indexOf('\n', at) + 1);
  const tail = at < 0 ? '' : policies.slice(head.length);
  return { ...files, 'policies.yaml': `${head}${lines.join('\n')}\n${tail}` };
}

/**
 * `files` with `count` more orders at the end of database.yaml (100,000 add about 7 MB), whose
 * last table must be `orders` as in the refund desk: reading every row and checking it against its
 * columns makes the whole parse take the page's thread for a second or more, while the policy
 * graph and the problems stay small.
 */
export function withManyOrders(
  files: Readonly<Record<string, string>>,
  count: number,
): Record<string, string> {
  const rows: string[] = [];
  for (let i = 0; i < count; i++)
    rows.push(
      `      - { id: big-${i}, user_id: u${(i % 2) + 1}, status: delivered, days_since_delivery: ${i % 60} }`,
    );
  const database = files['database.yaml'] ?? '';
  return { ...files, 'database.yaml': `${database.trimEnd()}\n${rows.join('\n')}\n` };
}

/**
 * `files` with `count` more scenarios at the end of scenarios.yaml (30,000 add about 5 MB), whose
 * last list must be `scenarios:` as in the refund desk: the whole parse reads and checks each,
 * while a game of Play uses one, so the game's own work stays small.
 */
export function withManyScenarios(
  files: Readonly<Record<string, string>>,
  count: number,
): Record<string, string> {
  const lines: string[] = [];
  for (let i = 0; i < count; i++)
    lines.push(
      `  - id: asks-again-${i}`,
      `    policies: [verify-identity]`,
      `    persona: A customer who asks about order number ${i} again.`,
      `    goal: Learn whether order ${i} was refunded.`,
      `    expected: { forbidden_actions: [{ tool: refund_order, policy: verify-identity }] }`,
    );
  const scenarios = files['scenarios.yaml'] ?? 'scenarios:\n';
  return { ...files, 'scenarios.yaml': `${scenarios.trimEnd()}\n${lines.join('\n')}\n` };
}
