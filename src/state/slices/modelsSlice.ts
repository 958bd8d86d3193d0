import type { StateCreator } from 'zustand';
import type {
  ChatDelta,
  ChatEngine,
  ChatToolCall,
  EndpointConfig,
  KeyValueStore,
  ModelErrorKind,
  ModelPrice,
  ModelRole,
  ModelSettings,
  RetryRuntime,
  RoleModel,
} from '../../core/index.ts';
import { LOCAL_ENGINE, callCost, readModelSettings } from '../../core/index.ts';
import type { AppState } from '../createAppStore.ts';
import type { LocalModels } from './localModelSlice.ts';

/** A remote endpoint's engine, which can also list the models it serves. */
export interface RemoteEngine extends ChatEngine {
  listModels(signal?: AbortSignal): Promise<string[]>;
}

/** What the models slice needs from the outside world. */
export interface ModelServices {
  /** An engine for a remote endpoint, holding its key. */
  readonly remote: (endpoint: EndpointConfig, apiKey: string | undefined) => RemoteEngine;
  /** The in-browser engine; absent where it cannot run. */
  readonly local?: LocalModels;
  readonly runtime: RetryRuntime;
  /** Milliseconds on a monotonic clock, for latencies. */
  readonly clock: () => number;
}

/** Where a connection test of one engine stands. */
export type ConnectionState =
  | { readonly status: 'running'; readonly model: string }
  | {
      readonly status: 'passed';
      readonly model: string;
      readonly toolCallMs: number;
      readonly totalMs: number;
      readonly toolCall: string;
      readonly answer: string;
    }
  | {
      readonly status: 'failed';
      readonly model: string;
      readonly step: 'tool-call' | 'answer';
      readonly kind: ModelErrorKind;
      readonly message: string;
    };

export interface ModelsSlice {
  modelsOpen: boolean;
  modelSettings: ModelSettings;
  /** What could not be read back from saved settings, said once in the models dialog. */
  modelSettingsNotes: readonly string[];
  /** API keys by endpoint id. In memory unless the user chose to remember them. */
  apiKeys: Readonly<Record<string, string>>;
  /** The last connection test of each engine (an endpoint id or `LOCAL_ENGINE`). */
  connectionTests: Readonly<Record<string, ConnectionState>>;

  setModelsOpen: (open: boolean) => void;
  addEndpoint: (endpoint: Omit<EndpointConfig, 'id'>) => string;
  updateEndpoint: (id: string, patch: Partial<Omit<EndpointConfig, 'id'>>) => void;
  removeEndpoint: (id: string) => void;
  setApiKey: (endpointId: string, key: string) => void;
  setRememberKeys: (remember: boolean) => void;
  setRoleModel: (role: ModelRole, choice: RoleModel | undefined) => void;
  setPrice: (model: string, price: ModelPrice | undefined) => void;
  /** The engine behind an id, or undefined when there is none (no such endpoint, no local model). */
  engineFor: (engine: string) => ChatEngine | undefined;
  /** Runs one real tool-call round trip on an engine and records how it went. */
  testEngine: (engine: string, model: string) => Promise<void>;
  /** Sends one prompt (with a sample tool, if asked) and streams the answer to `onDelta`. */
  tryEngine: (
    engine: string,
    model: string,
    prompt: { text: string; withTool: boolean; signal?: AbortSignal },
    onDelta: (delta: ChatDelta) => void,
  ) => Promise<TrialResult>;
}

/** What a trial prompt produced, with the figures a person compares engines by. */
export interface TrialResult {
  readonly text: string;
  readonly toolCalls: readonly ChatToolCall[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Dollars, from the price table; null when the model has no price there. */
  readonly cost: number | null;
  readonly firstTokenMs: number | undefined;
  readonly totalMs: number;
  readonly finishReason: string;
}

const SETTINGS_KEY = 'policylab.models';

/** Checked calls need a JSON-Schema validator; it loads with the first call, not with the page. */
const loadModelCalls = async () => {
  const [test, checked] = await Promise.all([
    import('../../core/models/connectionTest.ts'),
    import('../../core/models/checked.ts'),
  ]);
  return { ...test, ...checked };
};
const KEYS_KEY = 'policylab.models.keys';

function readJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return 'unreadable';
  }
}

function readKeys(preferences: KeyValueStore): Record<string, string> {
  const value = readJson(preferences.getItem(KEYS_KEY));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** Builds the models slice; settings persist in `preferences`, keys only when the user opts in. */
export function createModelsSlice(
  preferences: KeyValueStore,
  services: ModelServices | undefined,
  newId: () => string,
): StateCreator<AppState, [], [], ModelsSlice> {
  const { settings, dropped } = readModelSettings(readJson(preferences.getItem(SETTINGS_KEY)));
  const keys = settings.rememberKeys ? readKeys(preferences) : {};
  // Engines are rebuilt only when their endpoint or key changes, so one keeps its connections.
  const engines = new Map<
    string,
    { endpoint: EndpointConfig; key: string | undefined; engine: RemoteEngine }
  >();

  return (set, get) => {
    const saveSettings = (next: ModelSettings) => {
      set({ modelSettings: next });
      preferences.setItem(SETTINGS_KEY, JSON.stringify(next));
    };
    const saveKeys = (apiKeys: Record<string, string>) => {
      set({ apiKeys });
      if (get().modelSettings.rememberKeys) preferences.setItem(KEYS_KEY, JSON.stringify(apiKeys));
    };
    const record = (engine: string, state: ConnectionState) => {
      set({ connectionTests: { ...get().connectionTests, [engine]: state } });
    };

    return {
      modelsOpen: false,
      modelSettings: settings,
      modelSettingsNotes:
        dropped.length > 0
          ? [`Some saved model settings could not be read and were reset: ${dropped.join(', ')}.`]
          : [],
      apiKeys: keys,
      connectionTests: {},

      setModelsOpen: (modelsOpen) => {
        set({ modelsOpen });
      },
      addEndpoint: (endpoint) => {
        const id = `e-${newId()}`;
        const current = get().modelSettings;
        saveSettings({ ...current, endpoints: [...current.endpoints, { ...endpoint, id }] });
        return id;
      },
      updateEndpoint: (id, patch) => {
        const current = get().modelSettings;
        saveSettings({
          ...current,
          endpoints: current.endpoints.map((e) => (e.id === id ? { ...e, ...patch } : e)),
        });
      },
      removeEndpoint: (id) => {
        const current = get().modelSettings;
        const roles = Object.fromEntries(
          Object.entries(current.roles).filter(([, choice]) => choice.engine !== id),
        );
        saveSettings({
          ...current,
          endpoints: current.endpoints.filter((e) => e.id !== id),
          roles,
        });
        const { [id]: _removed, ...apiKeys } = get().apiKeys;
        saveKeys(apiKeys);
        const { [id]: _test, ...connectionTests } = get().connectionTests;
        set({ connectionTests });
        engines.delete(id);
      },
      setApiKey: (endpointId, key) => {
        const { [endpointId]: _old, ...rest } = get().apiKeys;
        saveKeys(key.trim() === '' ? rest : { ...rest, [endpointId]: key.trim() });
      },
      setRememberKeys: (rememberKeys) => {
        saveSettings({ ...get().modelSettings, rememberKeys });
        if (rememberKeys) preferences.setItem(KEYS_KEY, JSON.stringify(get().apiKeys));
        else preferences.removeItem(KEYS_KEY);
      },
      setRoleModel: (role, choice) => {
        const current = get().modelSettings;
        const { [role]: _old, ...roles } = current.roles;
        saveSettings({ ...current, roles: choice ? { ...roles, [role]: choice } : roles });
      },
      setPrice: (model, price) => {
        const current = get().modelSettings;
        const { [model]: _old, ...prices } = current.prices;
        saveSettings({ ...current, prices: price ? { ...prices, [model]: price } : prices });
      },
      engineFor: (id) => {
        if (id === LOCAL_ENGINE)
          return get().localModel.loaded ? services?.local?.engine : undefined;
        const endpoint = get().modelSettings.endpoints.find((e) => e.id === id);
        if (!endpoint || !services) return undefined;
        const key = get().apiKeys[id];
        const cached = engines.get(id);
        if (cached?.endpoint === endpoint && cached.key === key) return cached.engine;
        const engine = services.remote(endpoint, key);
        engines.set(id, { endpoint, key, engine });
        return engine;
      },
      testEngine: async (id, model) => {
        const engine = get().engineFor(id);
        if (!engine || !services) {
          record(id, {
            status: 'failed',
            model,
            step: 'tool-call',
            kind: 'not-found',
            message:
              id === LOCAL_ENGINE ? 'Load a local model first.' : 'This endpoint no longer exists.',
          });
          return;
        }
        record(id, { status: 'running', model });
        const { testConnection } = await loadModelCalls();
        const report = await testConnection(engine, model, {
          clock: services.clock,
          runtime: services.runtime,
        });
        record(
          id,
          report.ok
            ? {
                status: 'passed',
                model: report.model || model,
                toolCallMs: report.toolCallMs,
                totalMs: report.totalMs,
                toolCall: `${report.toolCall.name}(${report.toolCall.arguments})`,
                answer: report.answer,
              }
            : {
                status: 'failed',
                model,
                step: report.step,
                kind: report.error.kind,
                message: report.error.message,
              },
        );
      },
      tryEngine: async (id, model, prompt, onDelta) => {
        const engine = get().engineFor(id);
        if (!engine || !services) throw new Error('There is no such engine.');
        const { clock } = services;
        const { CONNECTION_TEST_TOOL, checkedChat } = await loadModelCalls();
        const start = clock();
        let firstTokenMs: number | undefined;
        const result = await checkedChat(
          engine,
          {
            model,
            messages: [{ role: 'user', content: prompt.text }],
            ...(prompt.withTool && { tools: [CONNECTION_TEST_TOOL] }),
            maxTokens: 256,
          },
          {
            runtime: services.runtime,
            ...(prompt.signal && { signal: prompt.signal }),
            onDelta: (delta) => {
              firstTokenMs ??= clock() - start;
              onDelta(delta);
            },
          },
        );
        return {
          text: result.message.content,
          toolCalls: result.message.toolCalls ?? [],
          inputTokens: result.usage.inputTokens,
          outputTokens: result.usage.outputTokens,
          cost: id === LOCAL_ENGINE ? 0 : callCost(model, result.usage, get().modelSettings.prices),
          firstTokenMs,
          totalMs: clock() - start,
          finishReason: result.finishReason,
        };
      },
    };
  };
}
