import { describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../core/index.ts';
import { USER_STOP } from '../core/index.ts';
import { storeWithEngine, withEndpointModels } from '../test/modelStore.ts';
import { modelReply } from '../test/scriptedModels.ts';
import { runSelectors } from './simulationSelectors.ts';

const say = (content: string) => modelReply(content);

/** Answers every call: the agent politely, the simulated user asking once, then saying goodbye. */
const engine: ChatEngine = {
  chat: (request) =>
    Promise.resolve(
      request.tools
        ? say('I can help with that.')
        : say(
            request.messages.some((m) => m.role === 'assistant')
              ? `Thanks, bye. ${USER_STOP}`
              : 'Hello, I need a refund.',
          ),
    ),
};

/** A store over `engine` that keeps every request it was sent. */
function recordedStore() {
  const seen: ChatRequest[] = [];
  const { store } = storeWithEngine({
    chat: (request, options) => {
      seen.push(request);
      return engine.chat(request, options);
    },
  });
  return { seen, store };
}

describe('simulation slice', () => {
  it('says which models are missing instead of starting', async () => {
    const { store } = storeWithEngine(engine);
    await store.getState().boot({ example: 'mini' });
    await store.getState().startRun();
    expect(store.getState().simulationMessage).toMatch(/Choose models first/);
    expect(store.getState().currentRun).toBeNull();
  });

  it('runs the project’s scenarios, saves the log as it goes, and opens it again', async () => {
    const { store, runs } = storeWithEngine(engine);
    await withEndpointModels(store);
    store.getState().setRunSettings({ trials: 2 });
    await store.getState().startRun();
    const run = store.getState().currentRun;
    expect(run?.live).toBe(false);
    expect(run?.events.at(-1)).toMatchObject({ type: 'run-ended', reason: 'done' });
    const saved = await runs.events(run?.id ?? '');
    expect(saved).toEqual(run?.events);
    expect(store.getState().runList.map((r) => r.title)).toEqual(['1 scenario × 2 · m']);
    const report = runSelectors(store).selectRunReport(store.getState());
    expect(report?.progress).toMatchObject({ dialoguesEnded: 2, ended: 'done' });

    store.setState({ currentRun: null });
    await store.getState().openRun(run?.id ?? '');
    expect(store.getState().currentRun?.events).toEqual(saved);
  });

  it('stops a run on cancel, keeping what finished', async () => {
    let calls = 0;
    // Each dialogue makes three calls (the user, the agent, the user's goodbye): the seventh is
    // the third dialogue's first, held until cancelled.
    let third: () => void = () => undefined;
    const hung = new Promise<void>((resolve) => {
      third = resolve;
    });
    const { store } = storeWithEngine({
      chat: (request, options) => {
        calls++;
        if (calls > 6) {
          third();
          return new Promise((_, reject) => {
            options?.signal?.addEventListener('abort', () => {
              reject(new Error('stopped'));
            });
          });
        }
        return engine.chat(request, options);
      },
    });
    await withEndpointModels(store);
    store.getState().setRunSettings({ trials: 3, concurrency: 1 });
    const running = store.getState().startRun();
    await hung;
    expect(store.getState().currentRun?.live).toBe(true);
    store.getState().cancelRun();
    await running;
    const report = runSelectors(store).selectRunReport(store.getState());
    expect(report?.progress.ended).toBe('cancelled');
    expect(report?.dialogues.map((d) => d.ending)).toEqual(['user-done', 'user-done', 'cancelled']);
  });
});

describe('the judge role', () => {
  it('judges with the model the role was given, and not at all when it has none', async () => {
    const { store } = storeWithEngine(engine);
    await withEndpointModels(store);
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
    const { seen, store } = recordedStore();
    await withEndpointModels(store);
    const agentEndpoint = store.getState().addEndpoint({
      kind: 'openai',
      label: 'My bot',
      baseUrl: 'http://127.0.0.1:8/v1',
      defaultModel: 'bot',
      hostsAgent: true,
    });
    store.getState().setRoleModel('agent', { engine: agentEndpoint, model: 'bot' });
    // The bot has no price, so a dollar budget could not be kept.
    store.getState().setRunSettings({ budgetDollars: null });
    await store.getState().startRun();
    const events = store.getState().currentRun?.events ?? [];
    expect(events[0]).toMatchObject({ type: 'run-started', externalAgent: true });
    expect(seen.filter((r) => r.model === 'bot').every((r) => r.tools === undefined)).toBe(true);
    expect(runSelectors(store).selectRunReport(store.getState())?.run?.externalAgent).toBe(true);
  });
});

describe('the run seed', () => {
  it('is the one the form set, recorded in the log', async () => {
    const { store } = storeWithEngine(engine);
    await withEndpointModels(store);
    store.getState().setRunSettings({ seed: 9 });
    await store.getState().startRun();
    expect(store.getState().currentRun?.events[0]).toMatchObject({ type: 'run-started', seed: 9 });
  });
});

describe('the project’s prompts', () => {
  it('sends the simulated user the prompt scenarios.yaml gives, and records where it came from', async () => {
    const { seen, store } = recordedStore();
    await withEndpointModels(store);
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
