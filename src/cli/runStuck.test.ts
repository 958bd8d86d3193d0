import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { ENDLESS_CONDITION } from '../test/hostile/patternInputs.ts';
import type { RecordedRequest, TestServer } from '../test/servers/http.ts';
import type { OpenAIRequestBody } from '../test/servers/openaiServer.ts';
import { startOpenAIServer } from '../test/servers/openaiServer.ts';
import { runRun } from './run.ts';

/** The agent looks the customer up first; the customer asks for a refund. */
function lookUpFirst(request: RecordedRequest) {
  const body = request.body as OpenAIRequestBody;
  if (!body.tools || body.tools.length === 0) return { text: 'I want a refund for order o1.' };
  if ((body.messages ?? []).some((m) => m.role === 'tool')) return { text: 'Done.' };
  return { toolCalls: [{ name: 'get_user', arguments: { user_id: 'u1' } }] };
}

describe('policylab run with a guard that never finishes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({ script: lookUpFirst });
  });
  afterAll(async () => {
    await server.close();
  });

  it(
    'ends each stuck dialogue at its time limit, logs why, and finishes the run',
    { timeout: 90_000 },
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'policylab-stuck-'));
      for (const [name, text] of Object.entries(MINI_FILES))
        writeFileSync(path.join(dir, name), text);
      const endless = `guards:\n  get_user:\n    rules:\n      - id: never-ends\n        policy: verify-identity\n        decision: forbid\n        when: '${ENDLESS_CONDITION}'\n        message: Never reached.\n`;
      writeFileSync(
        path.join(dir, 'rules.yaml'),
        MINI_FILES['rules.yaml'].replace('guards:\n', () => endless),
      );
      const out = path.join(dir, 'out');
      writeFileSync(
        path.join(dir, 'run.yaml'),
        `models:\n  agent: { provider: openai, base_url: ${server.url}, model: m }\ntrials: 1\nconcurrency: 1\nmax_turns: 2\ntime_limit_s: 1\nout: ${out}\n`,
      );
      const err: string[] = [];
      await runRun([dir, '--config', path.join(dir, 'run.yaml')], {
        out: () => undefined,
        err: (t) => err.push(t),
      });
      const events = readFileSync(path.join(out, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; reason?: string; detail?: string });
      const endings = events.filter((e) => e.type === 'dialogue-ended');
      expect(endings.length).toBeGreaterThan(0);
      for (const ending of endings) {
        expect(ending.reason).toBe('time-limit');
        expect(ending.detail).toContain('still computing');
      }
      expect(events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
      expect(err.join('')).toContain('time-limit');
    },
  );
});
