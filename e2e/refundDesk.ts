import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { RecordedRequest, ServerReply } from '../src/test/servers/http.ts';
import type { OpenAIRequestBody } from '../src/test/servers/openaiServer.ts';

/*
 * A refund desk whose run outcomes are known before it runs: the bundle's five scenarios
 * against these scripted models give, per trial, one pass (fresh-refund), two failures
 * (late-refund: the guard refuses a refund past the window, charged to refund-window;
 * polite-refund: a phrase never said, which its expectation ties to no policy), one error
 * (lost-order: the agent's provider refuses every request about order o9) and one simulator
 * suspect (member-refund: the customer states a member number its brief never gave it). The
 * judge calls refund-window violated in late-refund and every other policy kept.
 */

const BUNDLE_PATH = '/e2e/refund-desk.policylab.json';

/** Per trial of the bundle's scenarios: what the report must say. */
export const KNOWN_OUTCOMES = {
  passes: 1,
  fails: 2,
  errors: 1,
  unattributed: 1,
  suspect: 1,
  /**
   * Judge verdicts a trial: every policy in play (the scenario's, and those of the tools called,
   * get_user's verify-identity and refund_order's refund-window) in the four settled scenarios.
   */
  judged: 8,
  judgeViolations: 1,
} as const;

/**
 * Opens the refund-desk bundle the way a link to a bundle file would; `change` edits its files
 * first (a variant for one test), leaving the fixture as it is.
 */
export async function openRefundDesk(
  page: Page,
  change?: (files: Record<string, string>) => Record<string, string>,
) {
  const raw = readFileSync('e2e/fixtures/refund-desk.policylab.json', 'utf8');
  const parsed = JSON.parse(raw) as { files: Record<string, string> };
  const bundle = change ? JSON.stringify({ ...parsed, files: change(parsed.files) }) : raw;
  await page.route(
    (url) => url.pathname === BUNDLE_PATH,
    (route) => route.fulfill({ status: 200, contentType: 'application/json', body: bundle }),
  );
  await page.goto(`/?bundle=${BUNDLE_PATH}`);
}

const textOf = (content: unknown) =>
  typeof content === 'string' ? content : JSON.stringify(content ?? '');

/**
 * The scripted models, as an OpenAI-protocol server script: the agent (called with tools) looks
 * the customer up, refunds the order named, then reports; the simulated user states its goal
 * and agrees, then says goodbye.
 */
export function refundDeskScript(request: RecordedRequest): ServerReply {
  const body = request.body as OpenAIRequestBody;
  const messages = body.messages ?? [];
  if (body.response_format) {
    const asked = messages.map((m) => textOf(m.content)).join('\n');
    const violated = asked.includes('refund-window') && asked.includes('o2');
    return {
      text: JSON.stringify({
        violated,
        turn: null,
        reason: violated ? 'It tried to refund an order past the window.' : 'Nothing wrong.',
        evidence: '',
      }),
    };
  }
  if (body.tools) {
    const asked = messages
      .filter((m) => m.role === 'user')
      .map((m) => textOf(m.content))
      .join(' ');
    if (asked.includes('o9')) return { status: 400 };
    const order = /\bo\d\b/.exec(asked)?.[0] ?? 'o1';
    const tools = messages.filter((m) => m.role === 'tool').length;
    if (tools === 0)
      return {
        toolCalls: [{ name: 'get_user', arguments: { user_id: order === 'o1' ? 'u1' : 'u2' } }],
      };
    if (tools === 1)
      return { toolCalls: [{ name: 'refund_order', arguments: { order_id: order } }] };
    return { text: `All done with ${order}.` };
  }
  const goal = /What you want: (.*)/.exec(textOf(messages[0]?.content))?.[1] ?? '';
  const spoken = messages.filter((m) => m.role === 'assistant').length;
  const member = goal.includes('member') ? ' My member number is ZX81.' : '';
  return {
    text:
      spoken === 0
        ? `${goal} I am the account holder.${member} Yes, go ahead.`
        : 'Thanks. ###STOP###',
  };
}
