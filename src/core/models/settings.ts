import type { ModelRole } from './chat.ts';
import { MODEL_ROLES } from './chat.ts';
import type { ModelPrice, PriceTable } from './usage.ts';

/** The wire protocols a remote endpoint may speak. */
export const ENDPOINT_KINDS = ['openai', 'anthropic'] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

/** The engine id of the model running in this browser. */
export const LOCAL_ENGINE = 'local';

/** A remote endpoint the user configured. Its API key is never part of this. */
export interface EndpointConfig {
  readonly id: string;
  readonly kind: EndpointKind;
  readonly label: string;
  /** e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`, `https://api.anthropic.com`. */
  readonly baseUrl: string;
  /** The model a role gets when it picks this endpoint and names none. */
  readonly defaultModel: string;
  /**
   * The endpoint is the user's own agent, with its prompt and tools on its side: as the agent
   * under test it is sent only the conversation.
   */
  readonly hostsAgent?: boolean;
}

/** Which engine (`LOCAL_ENGINE` or an endpoint id) and model a role uses. */
export interface RoleModel {
  readonly engine: string;
  readonly model: string;
}

/** The model settings of this device (not of a project: they never travel with one). */
export interface ModelSettings {
  readonly endpoints: readonly EndpointConfig[];
  readonly roles: Readonly<Partial<Record<ModelRole, RoleModel>>>;
  readonly prices: PriceTable;
  /** Whether API keys are kept on this device; otherwise they live in memory only. */
  readonly rememberKeys: boolean;
}

/** Prices in US dollars per million tokens, as published by the providers; the user edits them. */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'claude-sonnet-4-5': { inputPerMillion: 3, outputPerMillion: 15 },
  'claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5 },
};

export const DEFAULT_MODEL_SETTINGS: ModelSettings = {
  endpoints: [],
  roles: {},
  prices: DEFAULT_PRICES,
  rememberKeys: false,
};

/** Starting points for the "add an endpoint" form. */
export const ENDPOINT_PRESETS: readonly (Omit<EndpointConfig, 'id'> & { readonly note: string })[] =
  [
    {
      kind: 'openai',
      label: 'OpenAI',
      baseUrl: 'https://api.openai.com/v1',
      defaultModel: 'gpt-4.1-mini',
      note: 'Needs an API key.',
    },
    {
      kind: 'anthropic',
      label: 'Anthropic',
      baseUrl: 'https://api.anthropic.com',
      defaultModel: 'claude-haiku-4-5',
      note: 'Needs an API key.',
    },
    {
      kind: 'openai',
      label: 'Ollama',
      baseUrl: 'http://localhost:11434/v1',
      defaultModel: 'qwen2.5:3b',
      note: 'Start it with OLLAMA_ORIGINS set to this page.',
    },
    {
      kind: 'openai',
      label: 'LM Studio',
      baseUrl: 'http://localhost:1234/v1',
      defaultModel: 'qwen2.5-3b-instruct',
      note: 'Turn on "Enable CORS" in its server settings.',
    },
    {
      kind: 'openai',
      label: 'OpenRouter',
      baseUrl: 'https://openrouter.ai/api/v1',
      defaultModel: 'openai/gpt-4.1-mini',
      note: 'Needs an API key.',
    },
  ];

/**
 * Reads saved model settings, keeping every valid part of a damaged or hostile value and
 * saying what was dropped. Never throws.
 */
export function readModelSettings(value: unknown): { settings: ModelSettings; dropped: string[] } {
  const dropped: string[] = [];
  if (!isRecord(value)) {
    if (value !== undefined && value !== null) dropped.push('the saved model settings');
    return { settings: DEFAULT_MODEL_SETTINGS, dropped };
  }
  const endpoints: EndpointConfig[] = [];
  for (const raw of Array.isArray(value.endpoints) ? value.endpoints : []) {
    const endpoint = readEndpoint(raw);
    if (endpoint && !endpoints.some((e) => e.id === endpoint.id)) endpoints.push(endpoint);
    else dropped.push('an endpoint');
  }
  const engines = new Set([LOCAL_ENGINE, ...endpoints.map((e) => e.id)]);
  const roles: Partial<Record<ModelRole, RoleModel>> = {};
  const rawRoles = isRecord(value.roles) ? value.roles : {};
  for (const role of MODEL_ROLES) {
    const raw = rawRoles[role];
    if (raw === undefined) continue;
    if (
      isRecord(raw) &&
      typeof raw.engine === 'string' &&
      engines.has(raw.engine) &&
      isText(raw.model, 200)
    ) {
      roles[role] = { engine: raw.engine, model: raw.model };
    } else {
      dropped.push(`the ${role} model`);
    }
  }
  const prices: Record<string, ModelPrice> = {};
  const rawPrices = isRecord(value.prices) ? value.prices : DEFAULT_PRICES;
  for (const [model, raw] of Object.entries(rawPrices)) {
    const price = readPrice(raw);
    if (price && isText(model, 200)) prices[model] = price;
    else dropped.push(`the price of ${model.slice(0, 40)}`);
  }
  return {
    settings: { endpoints, roles, prices, rememberKeys: value.rememberKeys === true },
    dropped,
  };
}

/** Whether a base URL is one the app can call: http(s), with no credentials inside it. */
export function checkBaseUrl(text: string): string | undefined {
  // Core has no URL class (it runs without DOM or Node types), and this is all it needs.
  const match = /^(https?):\/\/([^/?#\s]+)(?:[/?#]\S*)?$/i.exec(text.trim());
  if (!match) {
    return /^[a-z][a-z0-9+.-]*:/i.test(text.trim()) && !/^https?:/i.test(text.trim())
      ? 'The URL must start with http:// or https://.'
      : 'Enter a full URL, such as https://api.openai.com/v1.';
  }
  if (match[2]?.includes('@')) return 'Put the key in the API key field, not in the URL.';
  return undefined;
}

function readEndpoint(raw: unknown): EndpointConfig | undefined {
  if (!isRecord(raw)) return undefined;
  const { id, kind, label, baseUrl, defaultModel } = raw;
  if (!isText(id, 100) || !ENDPOINT_KINDS.includes(kind as EndpointKind)) return undefined;
  if (!isText(label, 100) || !isText(baseUrl, 2000) || checkBaseUrl(baseUrl) !== undefined)
    return undefined;
  if (typeof defaultModel !== 'string' || defaultModel.length > 200) return undefined;
  return {
    id,
    kind: kind as EndpointKind,
    label,
    baseUrl,
    defaultModel,
    ...(raw.hostsAgent === true && { hostsAgent: true }),
  };
}

function readPrice(raw: unknown): ModelPrice | undefined {
  if (!isRecord(raw)) return undefined;
  const { inputPerMillion, outputPerMillion } = raw;
  const ok = (n: unknown): n is number =>
    typeof n === 'number' && Number.isFinite(n) && n >= 0 && n < 1e6;
  return ok(inputPerMillion) && ok(outputPerMillion)
    ? { inputPerMillion, outputPerMillion }
    : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= max;
}
