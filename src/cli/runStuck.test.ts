import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CEL_STEP_BUDGET } from '../core/celMeter.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { miniProjectFolder } from '../test/cliFolders.ts';
import { ENDLESS_CONDITION } from '../test/hostile/patternInputs.ts';
import type { RecordedRequest, TestServer } from '../test/servers/http.ts';
import type { OpenAIRequestBody } from '../test/servers/openaiServer.ts';
import { startOpenAIServer } from '../test/servers/openaiServer.ts';
import { createWorkerSimulator } from '../workers/simulationClient.ts';
import { runRun } from './run.ts';
import { simulationThread } from './simulationThread.ts';

/** The agent looks the customer up first; the customer asks for a refund. */
function lookUpFirst(request: RecordedRequest) {
  const body = request.body as OpenAIRequestBody;
  if (!body.tools || body.tools.length === 0) return { text: 'I want a refund for order o1.' };
  if ((body.messages ?? []).some((m) => m.role === 'tool')) return { text: 'Done.' };
  return { toolCalls: [{ name: 'get_user', arguments: { user_id: 'u1' } }] };
}

/** The mini project in a fresh folder, with a guard on get_user whose condition is `when`. */
function projectWithGuard(when: string): string {
  const dir = miniProjectFolder();
  const guard = `guards:\n  get_user:\n    rules:\n      - id: never-ends\n        policy: verify-identity\n        decision: forbid\n        when: '${when}'\n        message: Never reached.\n`;
  writeFileSync(
    path.join(dir, 'rules.yaml'),
    MINI_FILES['rules.yaml'].replace('guards:\n', () => guard),
  );
  return dir;
}

type LoggedEvent = {
  type: string;
  reason?: string;
  detail?: string;
  decision?: { reason?: string };
};

/** Runs the project with the scripted server as the agent; the log's events and stderr. */
async function run(
  dir: string,
  url: string,
  timeLimitS: number,
  simulate?: Parameters<typeof runRun>[3],
): Promise<{ events: LoggedEvent[]; err: string }> {
  const out = path.join(dir, 'out');
  writeFileSync(
    path.join(dir, 'run.yaml'),
    `models:\n  agent: { provider: openai, base_url: ${url}, model: m }\ntrials: 1\nconcurrency: 1\nmax_turns: 2\ntime_limit_s: ${timeLimitS}\nout: ${out}\n`,
  );
  const err: string[] = [];
  const io = { out: () => undefined, err: (t: string) => err.push(t) };
  const argv = [dir, '--config', path.join(dir, 'run.yaml')];
  await (simulate ? runRun(argv, io, process.env, simulate) : runRun(argv, io));
  const events = readFileSync(path.join(out, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LoggedEvent);
  return { events, err: err.join('') };
}

describe('policylab run with a guard that would never finish', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({ script: lookUpFirst });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses the call with the step budget’s message, and the dialogue and run go on to the end', async () => {
    const { events } = await run(projectWithGuard(ENDLESS_CONDITION), server.url, 60);
    const guard = events.find((e) => e.type === 'guard');
    expect(guard).toMatchObject({ allowed: false, rule: 'never-ends' });
    expect(guard?.reason).toContain(
      `stopped after ${CEL_STEP_BUDGET.toLocaleString('en-US')} steps`,
    );
    const endings = events.filter((e) => e.type === 'dialogue-ended');
    expect(endings.length).toBeGreaterThan(0);
    for (const ending of endings) expect(ending.reason).not.toBe('time-limit');
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
  });

  it('terminates a thread that never answers at the dialogue time limit, logs why, and finishes the run', async () => {
    const entry = new URL('../test/hostile/neverAnsweringThread.ts', import.meta.url);
    const threads: ReturnType<typeof simulationThread>[] = [];
    const simulate = createWorkerSimulator(() => {
      const thread = simulationThread(entry);
      threads.push(thread);
      return thread;
    });
    const { events, err } = await run(projectWithGuard('true'), server.url, 1, simulate);
    const endings = events.filter((e) => e.type === 'dialogue-ended');
    expect(endings.length).toBeGreaterThan(0);
    for (const ending of endings) {
      expect(ending.reason).toBe('time-limit');
      expect(ending.detail).toContain('still computing');
    }
    expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
    expect(err).toContain('time-limit');
    // Every thread ended, the stuck one included: it was terminated, not left spinning.
    expect(threads.length).toBe(2);
    await Promise.all(threads.map((t) => t.exited));
  });
});
