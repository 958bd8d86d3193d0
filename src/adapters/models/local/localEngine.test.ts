import type {
  CacheEntry,
  ChatCompletionChunk,
  DownloadOptions,
  LoadModelParams,
} from '@wllama/wllama/esm/index.js';
import { describe, expect, it } from 'vitest';
import type { ChatDelta, ChatRequest } from '../../../core/index.ts';
import type { WllamaChatParams } from './chatMapping.ts';
import { detectGpu } from './gpu.ts';
import type { GpuAdapterLike } from './gpu.ts';
import { createLocalModelHost } from './localEngine.ts';
import type { GpuSupport, ModelCacheLike, WllamaLike } from './types.ts';

const GGUF = new Blob([new Uint8Array([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0])]);
const FILE = { file: GGUF, name: 'tiny.gguf' };

function chunk(delta: ChatCompletionChunk['choices'][0]['delta'], finish?: string) {
  return {
    id: '',
    object: 'chat.completion.chunk',
    created: 0,
    model: '',
    choices: [{ index: 0, delta, finish_reason: finish ?? null, logprobs: null }],
    ...(finish !== undefined && {
      timings: { prompt_n: 10, cache_n: 2, predicted_n: 3 },
    }),
  } as ChatCompletionChunk;
}

type Script = (params: WllamaChatParams) => AsyncIterable<ChatCompletionChunk>;

/** A fake engine: records what it was asked, answers with `script`. */
class FakeWllama implements WllamaLike {
  static made: FakeWllama[] = [];
  loads: LoadModelParams[] = [];
  calls: WllamaChatParams[] = [];
  exited = false;
  readonly script: Script;
  readonly failLoad: ((params: LoadModelParams) => Error | undefined) | undefined;
  constructor(script: Script, failLoad?: (params: LoadModelParams) => Error | undefined) {
    this.script = script;
    this.failLoad = failLoad;
    FakeWllama.made.push(this);
  }
  loadModel(_blobs: Blob[], params: LoadModelParams = {}) {
    this.loads.push(params);
    const error = this.failLoad?.(params);
    return error ? Promise.reject(error) : Promise.resolve();
  }
  createChatCompletion(params: WllamaChatParams) {
    this.calls.push(params);
    return Promise.resolve(this.script(params));
  }
  exit() {
    this.exited = true;
    return Promise.resolve();
  }
}

async function* toolCallAnswer(): AsyncIterable<ChatCompletionChunk> {
  const chunks = [
    chunk({ content: 'Let me check.' }),
    chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'get_weather' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
    chunk({}, 'tool_calls'),
  ];
  for (const c of chunks) yield await Promise.resolve(c);
}

function host(
  script: Script,
  options: {
    gpu?: GpuSupport;
    failLoad?: (p: LoadModelParams) => Error | undefined;
    cache?: ModelCacheLike;
    estimate?: () => Promise<{ quota?: number; usage?: number }>;
  } = {},
) {
  FakeWllama.made = [];
  return createLocalModelHost({
    wasmUrl: '/wllama.wasm',
    createWllama: () => new FakeWllama(script, options.failLoad),
    detectGpu: () => Promise.resolve(options.gpu ?? { kind: 'cpu', reason: 'no GPU here' }),
    threads: 2,
    settleMs: 50,
    ...(options.cache && { cache: () => options.cache as ModelCacheLike }),
    ...(options.estimate && { storageEstimate: options.estimate }),
  });
}

const REQUEST: ChatRequest = {
  model: 'tiny',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c0', name: 'get_weather', arguments: '{"city":"Tokyo"}' }],
    },
    { role: 'tool', toolCallId: 'c0', content: '{"temp":21}' },
  ],
  tools: [
    { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
    { name: 'book', description: 'Book', parameters: { type: 'object', properties: {} } },
  ],
  toolChoice: { name: 'get_weather' },
  responseSchema: { name: 'out', schema: { type: 'object' } },
  temperature: 0,
  maxTokens: 32,
  seed: 7,
};

describe('the local engine', () => {
  it('sends our request as wllama OpenAI params and streams the answer back as ours', async () => {
    const local = host(toolCallAnswer);
    await local.load(FILE);
    const deltas: ChatDelta[] = [];
    const answer = await local.engine.chat(REQUEST, { onDelta: (d) => deltas.push(d) });

    const sent = FakeWllama.made[0]?.calls[0];
    expect(sent?.messages[2]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [
        {
          id: 'c0',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' },
        },
      ],
    });
    expect(sent?.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c0', content: '{"temp":21}' });
    expect(sent?.tools?.map((t) => t.function.name)).toEqual(['get_weather']);
    expect(sent?.tool_choice).toBe('required');
    expect(sent?.response_format?.json_schema?.name).toBe('out');
    expect([sent?.temperature, sent?.max_tokens, sent?.seed, sent?.stream]).toEqual([
      0,
      32,
      7,
      true,
    ]);

    expect(answer.message).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    });
    expect(answer.finishReason).toBe('tool_calls');
    expect(answer.usage).toEqual({ inputTokens: 12, outputTokens: 3 });
    expect(answer.model).toBe('tiny');
    expect(deltas[0]).toEqual({ kind: 'text', text: 'Let me check.' });
    expect(deltas[1]).toEqual({ kind: 'tool_call', index: 0, id: 'c1', name: 'get_weather' });
  });

  it('restarts a crashed worker, reloads the model and retries once; a second crash is an error', async () => {
    let calls = 0;
    const local = host(() => {
      calls++;
      if (calls === 1) throw new RangeError('Invalid typed array length: 7');
      if (calls >= 3) throw Object.assign(new Error('wasm trap'), { name: 'RuntimeError' });
      return toolCallAnswer();
    });
    await local.load(FILE, { contextSize: 2048 });
    const answer = await local.engine.chat(REQUEST);
    expect(answer.finishReason).toBe('tool_calls');
    expect(FakeWllama.made).toHaveLength(2);
    expect(FakeWllama.made[0]?.exited).toBe(true);
    expect(FakeWllama.made[1]?.loads[0]?.n_ctx).toBe(2048);

    await expect(local.engine.chat(REQUEST)).rejects.toMatchObject({
      name: 'ModelError',
      kind: 'server',
    });
    expect(FakeWllama.made).toHaveLength(3);
  });

  it('moves to the CPU when the GPU is lost and will not take the model back', async () => {
    let loads = 0;
    let calls = 0;
    const local = host(
      () => {
        if (++calls === 1) throw new Error('GPU device was lost');
        return toolCallAnswer();
      },
      {
        gpu: { kind: 'webgpu' },
        failLoad: (p) => (++loads > 1 && p.n_gpu_layers !== 0 ? new Error('no device') : undefined),
      },
    );
    expect((await local.load(FILE)).device).toBe('webgpu');
    expect((await local.engine.chat(REQUEST)).finishReason).toBe('tool_calls');
    expect(local.loaded()).toMatchObject({
      device: 'cpu',
      note: expect.stringMatching(/GPU failed/) as string,
    });
  });

  it('stops a streaming call at once when aborted, and a call that waits its turn too', async () => {
    const local = host(async function* (params) {
      for (let i = 0; i < 1000; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (params.abortSignal?.aborted)
          throw Object.assign(new Error('x'), { name: 'AbortError' });
        yield chunk({ content: 'a' });
      }
    });
    await local.load(FILE);
    const controller = new AbortController();
    let pieces = 0;
    const running = local.engine.chat(REQUEST, {
      signal: controller.signal,
      onDelta: () => {
        if (++pieces === 3) controller.abort();
      },
    });
    const queuedStop = new AbortController();
    const queued = local.engine
      .chat(REQUEST, { signal: queuedStop.signal })
      .catch((e: unknown) => e);
    queuedStop.abort();
    expect(await queued).toMatchObject({ kind: 'aborted' });
    await expect(running).rejects.toMatchObject({ kind: 'aborted' });
    expect(pieces).toBeLessThan(6);
  });

  it('says what is wrong: no model, a context too long, a file that is not GGUF', async () => {
    const local = host(() => {
      throw Object.assign(new Error('the request exceeds the available context size'), {
        type: 'inference_error',
      });
    });
    await expect(local.engine.chat(REQUEST)).rejects.toMatchObject({ kind: 'not-found' });
    await local.load(FILE, { contextSize: 512 });
    await expect(local.engine.chat(REQUEST)).rejects.toMatchObject({
      kind: 'context-length',
      message: expect.stringContaining('512 tokens') as string,
    });
    await expect(local.load({ file: new Blob(['hello']), name: 'a.txt' })).rejects.toThrow(
      /not a GGUF/,
    );
  });

  it('offloads to WebGPU when it can, and falls back to the CPU with a note when loading fails', async () => {
    const gpu = host(toolCallAnswer, { gpu: { kind: 'webgpu' } });
    expect(await gpu.load(FILE)).toMatchObject({ device: 'webgpu', threads: 2 });
    expect(FakeWllama.made[0]?.loads[0]?.n_gpu_layers).toBeGreaterThan(100);

    const failing = host(toolCallAnswer, {
      gpu: { kind: 'webgpu' },
      failLoad: (p) => (p.n_gpu_layers === 0 ? undefined : new Error('shader-f16 missing')),
    });
    const loaded = await failing.load(FILE);
    expect(loaded.device).toBe('cpu');
    expect(loaded.note).toMatch(/WebGPU could not run this model \(shader-f16 missing\)/);

    const cpu = host(toolCallAnswer, { gpu: { kind: 'cpu', reason: 'this GPU lacks shader-f16' } });
    expect(await cpu.load(FILE)).toMatchObject({
      device: 'cpu',
      note: 'This GPU lacks shader-f16',
    });
    expect(FakeWllama.made[0]?.loads[0]?.n_gpu_layers).toBe(0);
  });
});

/** An in-memory cache that writes progressively and can fail part-way. */
function memoryCache(fail?: (loaded: number) => Error | undefined): ModelCacheLike & {
  files: Map<string, CacheEntry>;
} {
  const files = new Map<string, CacheEntry>();
  const keyOf = (url: string) => `k_${url.split('/').pop() ?? ''}`;
  return {
    files,
    getNameFromURL: (url) => Promise.resolve(keyOf(url)),
    download(url, options: DownloadOptions = {}) {
      const key = keyOf(url);
      for (let loaded = 25; loaded <= 100; loaded += 25) {
        files.set(key, {
          name: key,
          size: loaded,
          metadata: { etag: '', originalSize: 0, originalURL: '' },
        });
        const error = fail?.(loaded);
        if (error) return Promise.reject(error);
        options.progressCallback?.({ loaded, total: 100 });
      }
      files.set(key, {
        name: key,
        size: 100,
        metadata: { etag: '', originalSize: 100, originalURL: url },
      });
      return Promise.resolve();
    },
    open: (name) => Promise.resolve(files.has(keyOf(name)) ? GGUF : null),
    list: () => Promise.resolve([...files.values()]),
    delete: (name) => {
      files.delete(name);
      files.delete(keyOf(name));
      return Promise.resolve();
    },
  };
}

describe('the model cache', () => {
  const url = 'https://huggingface.co/a/b/resolve/main/m.gguf';

  it('downloads with progress, lists, loads from and deletes cached models', async () => {
    const cache = memoryCache();
    const local = host(toolCallAnswer, { cache });
    const ticks: number[] = [];
    await local.download(url, { onProgress: (t) => ticks.push(t.loaded) });
    expect(ticks).toEqual([25, 50, 75, 100, 100]);
    expect(await local.listCache()).toEqual([
      { key: 'k_m.gguf', url, sizeBytes: 100, complete: true },
    ]);
    expect((await local.load({ url })).name).toBe('m');
    await local.deleteCached('k_m.gguf');
    expect(local.loaded()).toBeUndefined();
    expect(await local.listCache()).toEqual([]);
  });

  it('deletes what a failed download wrote, and words a full disk', async () => {
    const quota = Object.assign(new Error('write failed'), { name: 'QuotaExceededError' });
    const cache = memoryCache((loaded) => (loaded === 75 ? quota : undefined));
    const local = host(toolCallAnswer, {
      cache,
      estimate: () => Promise.resolve({ quota: 1_000_000_000, usage: 900_000_000 }),
    });
    await expect(local.download(url)).rejects.toThrow(
      'Not enough storage for this model (100 B needed, 100 MB free)',
    );
    expect(cache.files.size).toBe(0);

    const offline = memoryCache((loaded) =>
      loaded === 50 ? new TypeError('Failed to fetch') : undefined,
    );
    await expect(host(toolCallAnswer, { cache: offline }).download(url)).rejects.toMatchObject({
      kind: 'network',
    });
    expect(offline.files.size).toBe(0);
  });
});

describe('detectGpu', () => {
  const adapter = (features: string[], device?: Error): GpuAdapterLike => ({
    features: new Set(features),
    requestDevice: () =>
      device ? Promise.reject(device) : Promise.resolve({ destroy: () => undefined }),
  });
  const nav = (a: GpuAdapterLike | null) => ({ gpu: { requestAdapter: () => Promise.resolve(a) } });

  it('says in words why models will run on the CPU', async () => {
    expect(await detectGpu({})).toMatchObject({ kind: 'cpu', reason: /no WebGPU/ });
    expect(await detectGpu(nav(null))).toMatchObject({ reason: /no usable GPU/ });
    expect(await detectGpu(nav(adapter([])))).toEqual({
      kind: 'cpu',
      reason: 'this GPU lacks shader-f16; running on the CPU',
    });
    expect(await detectGpu(nav(adapter(['shader-f16'], new Error('lost'))))).toMatchObject({
      reason: /would not start \(lost\)/,
    });
    expect(await detectGpu(nav(adapter(['shader-f16'])))).toEqual({ kind: 'webgpu' });
  });
});
