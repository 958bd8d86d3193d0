import { parseArgs } from 'node:util';
import { createRemoteEngine } from '../adapters/models/remote.ts';
import type { RemoteKind } from '../adapters/models/remote.ts';
import { monotonicClock, platformRuntime } from '../adapters/models/runtime.ts';
import type { ConnectionReport } from '../core/index.ts';
import { testConnection } from '../core/index.ts';
import type { CliIO } from './main.ts';

/** The same codes as main.ts's EXIT: 0 passed, 1 the test failed, 2 the command line was wrong. */
const CODE = { ok: 0, failed: 1, usage: 2 } as const;

const DEFAULT_KEY_VAR: Readonly<Record<RemoteKind, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/** The text of `policylab models --help`. */
export function modelsHelpText(): string {
  return `policylab models test: check that a model endpoint works for PolicyLab.

Usage:
  policylab models test --base-url URL --model NAME [--provider openai|anthropic]
                        [--api-key-env VAR] [--json]

It runs one real tool-call round trip (the model must call a tool, then answer with its
result) and prints how long each step took, or what went wrong. Exit code 0 when it passes.

Options:
  --base-url URL      The endpoint: e.g. http://localhost:11434/v1 (Ollama),
                      https://api.openai.com/v1, https://api.anthropic.com.
  --model NAME        The model to test.
  --provider NAME     openai (any OpenAI-compatible server, the default) or anthropic.
  --api-key-env VAR   The environment variable that holds the API key (default
                      OPENAI_API_KEY or ANTHROPIC_API_KEY). The key is never taken from
                      the command line, so it stays out of shell history.
  --json              Print the result as JSON.
`;
}

/**
 * Runs `policylab models ...` (the arguments after "models") and returns the exit code.
 * @param env where API keys are read from; the process environment by default.
 */
export async function runModels(
  argv: readonly string[],
  io: CliIO,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  // Named without echoing the value: it may be a key typed where it should not be.
  if (argv.some((arg) => /^--(api-?key|key|token)(=|$)/i.test(arg))) {
    return usage(
      io,
      'the API key is never taken from the command line; put it in an environment variable and pass --api-key-env VAR.',
    );
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        provider: { type: 'string' },
        'api-key-env': { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usage(io, error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    io.out(modelsHelpText());
    return CODE.ok;
  }
  const [command, ...extra] = positionals;
  if (command !== 'test') return usage(io, `unknown models command "${command ?? ''}".`);
  if (extra.length > 0) return usage(io, `unexpected argument "${extra.join(' ')}".`);
  const baseUrl = values['base-url'];
  const model = values.model;
  if (baseUrl === undefined || baseUrl === '') return usage(io, '"models test" needs --base-url.');
  if (model === undefined || model === '') return usage(io, '"models test" needs --model.');
  const provider = values.provider ?? 'openai';
  if (provider !== 'openai' && provider !== 'anthropic') {
    return usage(io, `--provider must be openai or anthropic, not "${provider}".`);
  }
  const keyVar = values['api-key-env'] ?? DEFAULT_KEY_VAR[provider];
  const apiKey = env[keyVar] === '' ? undefined : env[keyVar];
  if (values['api-key-env'] !== undefined && apiKey === undefined) {
    return usage(io, `the environment variable ${keyVar} (--api-key-env) is not set.`);
  }

  const json = values.json === true;
  if (!json) {
    const key = apiKey === undefined ? 'without an API key' : `with the key in ${keyVar}`;
    io.err(`Testing ${model} at ${baseUrl} (${provider}), ${key}...\n`);
  }
  const engine = createRemoteEngine({ kind: provider, baseUrl }, apiKey);
  const report = await testConnection(engine, model, {
    clock: monotonicClock,
    runtime: platformRuntime,
  });
  io.out(
    json
      ? `${JSON.stringify(toJson(report, provider, baseUrl, model), null, 2)}\n`
      : describe(report),
  );
  return report.ok ? CODE.ok : CODE.failed;
}

const ms = (value: number) => `${Math.round(value)} ms`;

function describe(report: ConnectionReport): string {
  if (!report.ok) {
    const step = report.step === 'tool-call' ? 'the tool call' : 'the answer';
    const status = report.error.status === undefined ? '' : `, HTTP ${report.error.status}`;
    return [
      `FAILED at ${step} after ${ms(report.totalMs)} (${report.error.kind}${status}):`,
      `  ${report.error.message}`,
      '',
    ].join('\n');
  }
  const call = report.toolCall;
  return [
    `tool call  ${call.name}(${call.arguments})  ${ms(report.toolCallMs)}`,
    `answer     ${report.answer.replace(/\s+/g, ' ').trim()}`,
    `total      ${ms(report.totalMs)}`,
    `OK: ${report.model} called a tool and answered with its result.`,
    '',
  ].join('\n');
}

function toJson(report: ConnectionReport, provider: RemoteKind, baseUrl: string, model: string) {
  const common = { provider, baseUrl, model };
  if (report.ok) {
    return {
      ok: true,
      ...common,
      answeredBy: report.model,
      toolCallMs: Math.round(report.toolCallMs),
      totalMs: Math.round(report.totalMs),
      toolCall: report.toolCall,
      answer: report.answer,
    };
  }
  const { kind, status, message } = report.error;
  return {
    ok: false,
    ...common,
    step: report.step,
    error: { kind, ...(status !== undefined && { status }), message },
    totalMs: Math.round(report.totalMs),
  };
}

function usage(io: CliIO, message: string): number {
  io.err(`policylab models: ${message}\n`);
  io.err('Run "policylab models --help" to see what it accepts.\n');
  return CODE.usage;
}
