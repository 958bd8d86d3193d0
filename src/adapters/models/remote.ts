import type { Cancellation, ChatEngine } from '../../core/index.ts';
import { ModelError } from '../../core/index.ts';
import { requireBaseUrl } from './sdkErrors.ts';

/** The wire protocol an endpoint speaks. */
export type RemoteKind = 'openai' | 'anthropic';

/** A remote endpoint as the user configures it. */
export interface RemoteEndpoint {
  readonly kind: RemoteKind;
  /** OpenAI-compatible: up to `/v1` (a bare server gets `/v1` added); Anthropic: the server. */
  readonly baseUrl: string;
}

/** A ChatEngine for a remote endpoint, which can also say which models it serves. */
export interface RemoteEngine extends ChatEngine {
  /** The model names the endpoint lists. Rejects with a `ModelError`. */
  listModels(signal?: Cancellation): Promise<string[]>;
}

/** What an engine factory takes. */
export interface RemoteEngineConfig {
  readonly baseUrl: string;
  /** Sent to the endpoint only; never part of a message or a log. */
  readonly apiKey?: string | undefined;
  /** A fetch to use instead of the global one (tests, proxies). */
  readonly fetch?: typeof fetch;
  /** Extra headers on every request, e.g. OpenRouter's `HTTP-Referer`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The one way the app, the store and the CLI make a remote engine. The provider's SDK is
 * loaded on the first call, so it stays out of the page's first download; a bad base URL, or
 * an SDK that fails to load, comes back as a ModelError from that call.
 */
export function createRemoteEngine(
  endpoint: RemoteEndpoint,
  apiKey: string | undefined,
  extra: Pick<RemoteEngineConfig, 'fetch' | 'headers'> = {},
): RemoteEngine {
  const config: RemoteEngineConfig = { baseUrl: endpoint.baseUrl, apiKey, ...extra };
  let loading: Promise<RemoteEngine> | undefined;
  const engine = () => {
    loading ??= load(endpoint.kind, config).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    chat: async (request, options) => (await engine()).chat(request, options),
    listModels: async (signal) => (await engine()).listModels(signal),
  };
}

async function load(kind: RemoteKind, config: RemoteEngineConfig): Promise<RemoteEngine> {
  requireBaseUrl(config.baseUrl);
  let module;
  try {
    module =
      kind === 'openai'
        ? { create: (await import('./openaiEngine.ts')).createOpenAIEngine }
        : { create: (await import('./anthropicEngine.ts')).createAnthropicEngine };
  } catch (error) {
    throw new ModelError(
      'network',
      `Could not load the ${kind === 'openai' ? 'OpenAI' : 'Anthropic'} client: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return module.create(config);
}
