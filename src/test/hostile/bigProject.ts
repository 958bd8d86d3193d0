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
