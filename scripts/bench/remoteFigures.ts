// remote_overhead_ms: what our remote adapter (SDK, request mapping, stream assembly, checks and
// retry wrapper) adds to a call, over a bare fetch of the same streamed answer from a local
// OpenAI-protocol server that answers at once.
import { checkedChat } from '../../src/core/index.ts';
import type { ChatRequest } from '../../src/core/index.ts';
import { createRemoteEngine } from '../../src/adapters/models/remote.ts';
import { platformRuntime } from '../../src/adapters/models/runtime.ts';
import { startOpenAIServer } from '../../src/test/servers/openaiServer.ts';

const RUNS = 300;
const WARM_UP = 40;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Medians of a bare fetch and of an adapter call, taken in alternation so drift hits both. */
export async function remoteFigures(): Promise<{
  remote_overhead_ms: number;
  remote_bare_ms: number;
}> {
  const server = await startOpenAIServer({ script: () => ({ text: 'All good, thank you.' }) });
  try {
    const engine = createRemoteEngine({ kind: 'openai', baseUrl: server.url }, 'sk-bench');
    const request: ChatRequest = {
      model: 'bench',
      messages: [
        { role: 'system', content: 'You are a helpful agent.' },
        { role: 'user', content: 'Is everything fine?' },
      ],
      maxTokens: 64,
    };
    const body = JSON.stringify({
      model: 'bench',
      messages: request.messages,
      max_tokens: 64,
      stream: true,
      stream_options: { include_usage: true },
    });
    const bare = async () => {
      const response = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body,
      });
      await response.text();
    };
    const adapter = () => checkedChat(engine, request, { runtime: platformRuntime });
    const time = async (call: () => Promise<unknown>) => {
      const start = performance.now();
      await call();
      return performance.now() - start;
    };
    for (let i = 0; i < WARM_UP; i++) {
      await bare();
      await adapter();
    }
    const bareTimes: number[] = [];
    const adapterTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bareTimes.push(await time(bare));
      adapterTimes.push(await time(adapter));
      server.requests.length = 0;
    }
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      remote_overhead_ms: round(median(adapterTimes) - median(bareTimes)),
      remote_bare_ms: round(median(bareTimes)),
    };
  } finally {
    await server.close();
  }
}
