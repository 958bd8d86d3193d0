import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../adapters/storage/preferences.ts';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import type { ChatEngine, ChatRequest } from '../core/index.ts';
import { USER_STOP } from '../core/index.ts';
import { modelReply, waitingRuntime } from '../test/scriptedModels.ts';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';
import type { ModelServices } from './slices/modelsSlice.ts';
import { selectRunReport } from './simulationSelectors.ts';

const say = (content: string) => modelReply(content);

/** Answers every call: the agent politely, the simulated user by saying goodbye. */
const engine: ChatEngine = {
  chat: (request) =>
    Promise.resolve(
      request.tools ? say('I can help with that.') : say(`Thanks, bye. ${USER_STOP}`),
    ),
};

function storeWithRuns(chat: ChatEngine = engine) {
  const runs = createMemoryRunRepository();
  const models: ModelServices = {
    remote: () => ({
      chat: (request, options) => chat.chat(request, options),
      listModels: () => Promise.resolve([]),
    }),
    // No sleep ever ends on its own: no retry waits and no time limit strikes in these tests.
    runtime: waitingRuntime(0).runtime,
    clock: () => 0,
  };
  const store = createAppStore(testServices({ preferences: createMemoryStore(), runs, models }));
  return { store, runs };
}

async function ready(store: ReturnType<typeof storeWithRuns>['store']) {
  await store.getState().boot({ example: 'mini' });
  const id = store.getState().addEndpoint({
    kind: 'openai',
    label: 'E',
    baseUrl: 'http://127.0.0.1:9/v1',
    defaultModel: 'm',
  });
  store.getState().setRoleModel('agent', { engine: id, model: 'm' });
  store.getState().setRoleModel('user', { engine: id, model: 'm' });
}

describe('simulation slice', () => {
  it('says which models are missing instead of starting', async () => {
    const { store } = storeWithRuns();
    await store.getState().boot({ example: 'mini' });
    await store.getState().startRun();
    expect(store.getState().simulationMessage).toMatch(/Choose models first/);
    expect(store.getState().currentRun).toBeNull();
  });

  it('runs the project’s scenarios, saves the log as it goes, and opens it again', async () => {
    const { store, runs } = storeWithRuns();
    await ready(store);
    store.getState().setRunSettings({ trials: 2 });
    await store.getState().startRun();
    const run = store.getState().currentRun;
    expect(run?.live).toBe(false);
    expect(run?.events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
    const saved = await runs.events(run?.id ?? '');
    expect(saved).toEqual(run?.events);
    expect(store.getState().runList.map((r) => r.title)).toEqual(['1 scenario × 2 · m']);
    const report = selectRunReport(store.getState());
    expect(report?.progress).toMatchObject({ dialoguesEnded: 2, ended: 'done' });

    store.setState({ currentRun: null });
    await store.getState().openRun(run?.id ?? '');
    expect(store.getState().currentRun?.events).toEqual(saved);
  });

  it('stops a run on cancel, keeping what finished', async () => {
    let calls = 0;
    const { store } = storeWithRuns({
      chat: (request, options) => {
        calls++;
        if (calls > 2) {
          return new Promise((_, reject) => {
            options?.signal?.addEventListener('abort', () => {
              reject(new Error('stopped'));
            });
          });
        }
        return engine.chat(request, options);
      },
    });
    await ready(store);
    store.getState().setRunSettings({ trials: 3, concurrency: 1 });
    const running = store.getState().startRun();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.getState().currentRun?.live).toBe(true);
    store.getState().cancelRun();
    await running;
    const report = selectRunReport(store.getState());
    expect(report?.progress.ended).toBe('cancelled');
    expect(report?.dialogues.map((d) => d.ending)).toEqual(['user-done', 'user-done', 'cancelled']);
  });
});

describe('the judge role', () => {
  it('judges with the model the role was given, and not at all when it has none', async () => {
    const { store } = storeWithRuns();
    await ready(store);
    await store.getState().startRun();
    const unjudged = store.getState().currentRun?.events ?? [];
    expect(unjudged.some((e) => e.type === 'usage' && e.role === 'judge')).toBe(false);

    const endpoint = store.getState().modelSettings.endpoints[0]?.id ?? '';
    store.getState().setRoleModel('judge', { engine: endpoint, model: 'm' });
    await store.getState().startRun();
    const judged = store.getState().currentRun?.events ?? [];
    expect(judged.find((e) => e.type === 'run-started')).toMatchObject({ models: { judge: 'm' } });
  });
});

describe('an endpoint that is the user’s own agent', () => {
  it('gets only the conversation, and the run says so', async () => {
    const seen: ChatRequest[] = [];
    const { store } = storeWithRuns({
      chat: (request, options) => {
        seen.push(request);
        return engine.chat(request, options);
      },
    });
    await ready(store);
    const agentEndpoint = store.getState().addEndpoint({
      kind: 'openai',
      label: 'My bot',
      baseUrl: 'http://127.0.0.1:8/v1',
      defaultModel: 'bot',
      hostsAgent: true,
    });
    store.getState().setRoleModel('agent', { engine: agentEndpoint, model: 'bot' });
    await store.getState().startRun();
    const events = store.getState().currentRun?.events ?? [];
    expect(events[0]).toMatchObject({ type: 'run-started', externalAgent: true });
    expect(seen.filter((r) => r.model === 'bot').every((r) => r.tools === undefined)).toBe(true);
    expect(selectRunReport(store.getState())?.run?.externalAgent).toBe(true);
  });
});

describe('the run seed', () => {
  it('is the one the form set, recorded in the log', async () => {
    const { store } = storeWithRuns();
    await ready(store);
    store.getState().setRunSettings({ seed: 9 });
    await store.getState().startRun();
    expect(store.getState().currentRun?.events[0]).toMatchObject({ type: 'run-started', seed: 9 });
  });
});

describe('the project’s prompts', () => {
  it('sends the simulated user the prompt scenarios.yaml gives, and records where it came from', async () => {
    const seen: ChatRequest[] = [];
    const { store } = storeWithRuns({
      chat: (request, options) => {
        seen.push(request);
        return engine.chat(request, options);
      },
    });
    await ready(store);
    const scenarios = store.getState().project.files['scenarios.yaml'];
    store
      .getState()
      .setFileText(
        'scenarios.yaml',
        `${scenarios}prompts:\n  user_simulator: |-\n    Be {{persona}} and want {{goal}}. Say ${USER_STOP} when done.\n`,
      );
    await store.getState().startRun();
    const toUser = seen.find((r) => !r.tools);
    expect(toUser?.messages[0]).toEqual({
      role: 'system',
      content: `Be A patient customer. and want Get a refund for order o2.. Say ${USER_STOP} when done.`,
    });
    const started = store.getState().currentRun?.events[0];
    expect(started).toMatchObject({
      type: 'run-started',
      prompts: expect.arrayContaining([
        { id: 'user-simulator', version: 1, source: 'project' },
        { id: 'ask-user', version: 1, source: 'built-in' },
      ]) as unknown,
    });
  });
});
