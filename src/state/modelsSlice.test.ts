import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../adapters/storage/preferences.ts';
import type { ChatEngine, ChatRequest, KeyValueStore } from '../core/index.ts';
import { ModelError, toBundle } from '../core/index.ts';
import { instantRuntime, modelReply } from '../test/scriptedModels.ts';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';
import type { ModelServices, RemoteEngine } from './slices/modelsSlice.ts';

const KEY = 'sk-test-5f1e0c2a9b7d4e3f';

/** Model services whose remote engines answer from `reply` and remember what they were built with. */
function fakeModels(
  reply: (request: ChatRequest) => Promise<Awaited<ReturnType<ChatEngine['chat']>>>,
) {
  const built: { baseUrl: string; key: string | undefined }[] = [];
  let now = 0;
  const models: ModelServices = {
    remote: (endpoint, key): RemoteEngine => {
      built.push({ baseUrl: endpoint.baseUrl, key });
      return { chat: (request) => reply(request), listModels: () => Promise.resolve(['m']) };
    },
    runtime: instantRuntime,
    clock: () => (now += 10),
  };
  return { models, built };
}

/** Calls the tool when asked, then answers with its result: a passing connection test. */
const toolThenText = (request: ChatRequest) =>
  Promise.resolve(
    request.messages.at(-1)?.role === 'tool'
      ? modelReply('It is 14:05.')
      : modelReply('', [{ id: 't', name: 'get_local_time', args: { city: 'Paris' } }]),
  );

/** An OpenAI-compatible endpoint on a port nothing listens on. */
const MINE = {
  kind: 'openai',
  label: 'Mine',
  baseUrl: 'http://localhost:9/v1',
  defaultModel: 'm',
} as const;
const addMine = (store: ReturnType<typeof storeWith>) => store.getState().addEndpoint(MINE);

function storeWith(preferences: KeyValueStore, models: ModelServices) {
  return createAppStore(testServices({ preferences, models }));
}

function everything(preferences: ReturnType<typeof createMemoryStore>): string {
  return ['policylab.models', 'policylab.models.keys']
    .map((k) => preferences.getItem(k) ?? '')
    .join('\n');
}

describe('model settings', () => {
  it('keeps API keys in memory only, unless the user opts in', () => {
    const preferences = createMemoryStore();
    const { models } = fakeModels(toolThenText);
    const store = storeWith(preferences, models);
    const id = addMine(store);
    store.getState().setApiKey(id, KEY);
    expect(store.getState().apiKeys[id]).toBe(KEY);
    expect(everything(preferences)).not.toContain(KEY);
    expect(storeWith(preferences, models).getState().apiKeys).toEqual({});

    store.getState().setRememberKeys(true);
    expect(storeWith(preferences, models).getState().apiKeys).toEqual({ [id]: KEY });

    store.getState().setRememberKeys(false);
    expect(everything(preferences)).not.toContain(KEY);
    expect(storeWith(preferences, models).getState().apiKeys).toEqual({});
  });

  it('never puts a key into a project export', async () => {
    const preferences = createMemoryStore();
    const { models } = fakeModels(toolThenText);
    const store = storeWith(preferences, models);
    await store.getState().boot({ example: 'mini' });
    const id = addMine(store);
    store.getState().setApiKey(id, KEY);
    store.getState().setRememberKeys(true);
    store.getState().setRoleModel('agent', { engine: id, model: 'm' });
    const bundle = JSON.stringify(toBundle(store.getState().project));
    expect(bundle).not.toContain(KEY);
    expect(bundle).not.toContain('localhost:9');
  });

  it('forgets the roles, key and test of a removed endpoint', () => {
    const preferences = createMemoryStore();
    const store = storeWith(preferences, fakeModels(toolThenText).models);
    const id = store.getState().addEndpoint({
      kind: 'anthropic',
      label: 'A',
      baseUrl: 'https://api.anthropic.com',
      defaultModel: 'c',
    });
    store.getState().setApiKey(id, KEY);
    store.getState().setRoleModel('judge', { engine: id, model: 'c' });
    store.getState().removeEndpoint(id);
    expect(store.getState().modelSettings.roles).toEqual({});
    expect(store.getState().apiKeys).toEqual({});
    expect(
      storeWith(preferences, fakeModels(toolThenText).models).getState().modelSettings.endpoints,
    ).toEqual([]);
  });

  it('builds an engine once per endpoint and key, and again when either changes', () => {
    const { models, built } = fakeModels(toolThenText);
    const store = storeWith(createMemoryStore(), models);
    const id = addMine(store);
    const first = store.getState().engineFor(id);
    expect(store.getState().engineFor(id)).toBe(first);
    store.getState().setApiKey(id, KEY);
    expect(store.getState().engineFor(id)).not.toBe(first);
    expect(built.map((b) => b.key)).toEqual([undefined, KEY]);
    expect(store.getState().engineFor('nope')).toBeUndefined();
  });

  it('says what it dropped from damaged saved settings', () => {
    const preferences = createMemoryStore({ 'policylab.models': '{"endpoints": [{"id": 3}]' });
    const store = storeWith(preferences, fakeModels(toolThenText).models);
    expect(store.getState().modelSettingsNotes[0]).toMatch(/could not be read/);
  });
});

describe('testEngine', () => {
  it('records a passed round trip with its latencies', async () => {
    const store = storeWith(createMemoryStore(), fakeModels(toolThenText).models);
    const id = addMine(store);
    const running = store.getState().testEngine(id, 'm');
    expect(store.getState().connectionTests[id]).toEqual({ status: 'running', model: 'm' });
    await running;
    expect(store.getState().connectionTests[id]).toMatchObject({
      status: 'passed',
      toolCall: 'get_local_time({"city":"Paris"})',
      answer: 'It is 14:05.',
    });
  });

  it('records the classified failure, and never the key', async () => {
    const { models } = fakeModels(() =>
      Promise.reject(
        new ModelError('auth', 'The provider refused the API key (401).', { status: 401 }),
      ),
    );
    const store = storeWith(createMemoryStore(), models);
    const id = addMine(store);
    store.getState().setApiKey(id, KEY);
    await store.getState().testEngine(id, 'm');
    const state = store.getState().connectionTests[id];
    expect(state).toMatchObject({ status: 'failed', kind: 'auth', step: 'tool-call' });
    expect(JSON.stringify(state)).not.toContain(KEY);
  });

  it('asks for a local model when none is loaded', async () => {
    const store = storeWith(createMemoryStore(), fakeModels(toolThenText).models);
    await store.getState().testEngine('local', 'x');
    expect(store.getState().connectionTests.local).toMatchObject({
      status: 'failed',
      message: 'Load a local model first.',
    });
  });
});

describe('tryEngine', () => {
  it('streams a trial answer and prices it from the table', async () => {
    const store = storeWith(createMemoryStore(), fakeModels(toolThenText).models);
    const id = addMine(store);
    store.getState().setPrice('m', { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 });
    const result = await store
      .getState()
      .tryEngine(id, 'm', { text: 'hi', withTool: true }, () => undefined);
    expect(result.toolCalls.map((c) => c.name)).toEqual(['get_local_time']);
    // 100 tokens in at $1 each and 10 out at $2 each (prices are per million).
    expect(result.cost).toBe(120);
    store.getState().setPrice('m', undefined);
    const unpriced = await store
      .getState()
      .tryEngine(id, 'm', { text: 'hi', withTool: true }, () => undefined);
    expect(unpriced.cost).toBeNull();
  });
});
