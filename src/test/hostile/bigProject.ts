import { longId } from './checkInputs.ts';

type Files = Readonly<Record<string, string>>;

/** The lines `lines(i)` gives for each i below `count`, one text. */
function repeated(count: number, lines: (i: number) => readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) for (const line of lines(i)) out.push(line);
  return out.join('\n');
}

/** `files` with `text` at the end of `name` (which starts as `empty` when the project lacks it). */
function appended(files: Files, name: string, text: string, empty = ''): Record<string, string> {
  return { ...files, [name]: `${(files[name] ?? empty).trimEnd()}\n${text}\n` };
}

/**
 * `files` with `count` more well-formed policies at the end of policies.yaml (60,000 add about
 * 11 MB): a project whose whole parse takes the page's thread for seconds, so Run scenarios, Play
 * and the editor's go to definition must never parse it there.
 */
export function withManyPolicies(files: Files, count: number): Record<string, string> {
  const added = repeated(count, (i) => [
    `  - id: ${longId('extra', i)}`,
    `    text: Refund an order only to the payment method it was paid with, case ${i}.`,
    `    category: refunds`,
    `    challenge: ${(i % 5) + 1}`,
  ]);
  // Right after `policies:`, so a `relations:` list after the policies stays as it is.
  const policies = files['policies.yaml'] ?? 'policies:\n';
  const at = policies.search(/^policies:[ \t]*\n/m);
  const head = at < 0 ? 'policies:\n' : policies.slice(0, policies.indexOf('\n', at) + 1);
  const tail = at < 0 ? '' : policies.slice(head.length);
  return { ...files, 'policies.yaml': `${head}${added}\n${tail}` };
}

/**
 * `files` with `count` more orders at the end of database.yaml (100,000 add about 7 MB), whose
 * last table must be `orders` as in the refund desk: reading every row and checking it against its
 * columns makes the whole parse take the page's thread for a second or more, while the policy
 * graph and the problems stay small.
 */
export function withManyOrders(files: Files, count: number): Record<string, string> {
  const rows = repeated(count, (i) => [
    `      - { id: big-${i}, user_id: u${(i % 2) + 1}, status: delivered, days_since_delivery: ${i % 60} }`,
  ]);
  return appended(files, 'database.yaml', rows);
}

/**
 * `files` with `count` more scenarios at the end of scenarios.yaml (30,000 add about 5 MB), whose
 * last list must be `scenarios:` as in the refund desk: the whole parse reads and checks each,
 * while a game of Play uses one, so the game's own work stays small.
 */
export function withManyScenarios(files: Files, count: number): Record<string, string> {
  const scenarios = repeated(count, (i) => [
    `  - id: asks-again-${i}`,
    `    policies: [verify-identity]`,
    `    persona: A customer who asks about order number ${i} again.`,
    `    goal: Learn whether order ${i} was refunded.`,
    `    expected: { forbidden_actions: [{ tool: refund_order, policy: verify-identity }] }`,
  ]);
  return appended(files, 'scenarios.yaml', scenarios, 'scenarios:\n');
}
