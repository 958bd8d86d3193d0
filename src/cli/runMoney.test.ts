import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedIO as io, miniProjectFolder as project } from '../test/cliFolders.ts';
import type { TestServer } from '../test/servers/http.ts';
import { startOpenAIServer } from '../test/servers/openaiServer.ts';
import { runRun } from './run.ts';

// What \`policylab run\` spends and says it spent: failed calls priced, the budget, estimated counts.

describe('policylab run: money', () => {
  /** The agent answers with broken tool-call JSON every time; the customer asks politely. */
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({
      script: (request) =>
        (request.body as { tools?: unknown }).tools
          ? { toolCalls: [{ name: 'refund_order', arguments: '{"order_id": ' }] }
          : { text: 'Please refund order o2, I am u2.' },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  /** Two trials, one at a time; the customer's model "u" is free, the agent's "m" $1 a token. */
  function run(dir: string, budget: string) {
    const file = path.join(dir, 'run.yaml');
    writeFileSync(
      file,
      `models:
  agent: { provider: openai, base_url: ${server.url}, model: m }
  user: { provider: openai, base_url: ${server.url}, model: u }
prices:
  m: { input: 1000000, output: 1000000 }
  u: { input: 0, output: 0 }
trials: 2
concurrency: 1
max_turns: 2
${budget}
out: ${path.join(dir, 'out')}
`,
    );
    return file;
  }
  const eventsOf = (dir: string) =>
    readFileSync(path.join(dir, 'out', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('logs a call that answered badly twice with both answers’ tokens, and prices it', async () => {
    const dir = project();
    const { io: cli } = io();
    await runRun([dir, '--config', run(dir, '')], cli, {});
    const events = eventsOf(dir);
    const failed = events.filter((e) => e.type === 'usage' && e.role === 'agent');
    expect(failed).toHaveLength(2);
    const [first] = failed;
    expect(first).toMatchObject({ failed: 'malformed-output', model: 'm' });
    // Two answers were paid for: each over the whole conversation, the repair turn longer.
    const tokens = Number(first?.inputTokens) + Number(first?.outputTokens);
    expect(first?.cost).toBe(tokens);
    const agentRequests = server.requests.filter((r) => (r.body as { tools?: unknown }).tools);
    expect(agentRequests).toHaveLength(4);
    const summary = JSON.parse(readFileSync(path.join(dir, 'out', 'summary.json'), 'utf8')) as {
      usage: { cost: number; failed: number };
    };
    expect(summary.usage).toMatchObject({ cost: tokens * 2, failed: 2 });
  });

  it('counts the agent’s broken output as its failure, unattributed, and fails the gate', async () => {
    const dir = project();
    const { io: cli, out } = io();
    const code = await runRun([dir, '--config', run(dir, 'threshold: 0.5')], cli, {});
    expect(out.join('')).toContain('0 passed, 2 failed, 0 errors · pass rate 0.0%');
    expect(out.join('')).toContain('2 failed dialogues name no policy (unattributed)');
    expect(code).toBe(1);
    const junit = readFileSync(path.join(dir, 'out', 'junit.xml'), 'utf8');
    expect(junit).toContain('failures="2" errors="0"');
    expect(junit).toContain('failed (unattributed: its own broken output)');
  });

  it('stops with "budget" once a failed call has spent it', async () => {
    const dir = project();
    const { io: cli, err, out } = io();
    await runRun([dir, '--config', run(dir, 'budget: { dollars: 1 }')], cli, {});
    const events = eventsOf(dir);
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'budget' });
    expect(events.filter((e) => e.type === 'dialogue-started')).toHaveLength(1);
    expect(err.join('')).toMatch(/\[1\/2\] late-refund#1: agent-error/);
    const said = out.join('');
    expect(said).toMatch(
      /Spent: \d+ model calls \(1 failed, counted all the same\) · \d+ tokens · \$\d+\.\d{4}\./,
    );
    expect(said).toContain('The budget was spent, so the run stopped with 1 dialogue(s) not run.');
    expect(said).not.toContain('≈');
  });
});

describe('policylab run: token counts a provider did not give', () => {
  /** Every answer comes without usage; the agent declines, the customer asks, then stops. */
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({
      script: (request) => {
        const body = request.body as { tools?: unknown; messages?: unknown[] };
        if (body.tools) return { text: 'I cannot refund that order.', noUsage: true };
        const said = (body.messages?.length ?? 0) > 2 ? 'Thanks. ###STOP###' : 'Refund order o2.';
        return { text: said, noUsage: true };
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('says the counts were estimated, and marks the figures resting on them', async () => {
    const dir = project();
    const file = path.join(dir, 'run.yaml');
    writeFileSync(
      file,
      `models:\n  agent: { provider: openai, base_url: ${server.url}, model: m }\n  user: { provider: openai, base_url: ${server.url}, model: u }\nprices:\n  m: { input: 1, output: 1 }\n  u: { input: 1, output: 1 }\ntrials: 1\nmax_turns: 2\nout: ${path.join(dir, 'out')}\n`,
    );
    const { io: cli, out } = io();
    await runRun([dir, '--config', file], cli, {});
    const said = out.join('');
    expect(said).toMatch(
      /Spent: (\d+) model calls · ≈\d+ tokens · ≈\$\d+\.\d{4} \(the provider's token counts of \1 calls could not be true or were missing: estimated from characters\)\./,
    );
    // The figures only: the output's paths hold random letters and digits.
    const spent = said.split('\n').find((line) => line.startsWith('Spent:'));
    expect(spent).not.toMatch(/NaN|Infinity|-\d/);
  });
});
