import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../test/servers/anthropicServer.ts';
import type { TestServer } from '../test/servers/http.ts';
import { startOpenAIServer } from '../test/servers/openaiServer.ts';
import { EXIT, runCli } from './main.ts';
import { runModels } from './models.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function capture(argv: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await runModels(argv, { out: (t) => (out += t), err: (t) => (err += t) }, env);
  return { code, out, err };
}

const KEY = 'sk-cli-SECRET-0123456789';

describe('policylab models test', () => {
  it('passes against an OpenAI-compatible server, printing the tool call and timings', async () => {
    server = await startOpenAIServer({ requireKey: KEY });
    const args = ['test', '--base-url', server.url, '--model', 'test-model'];
    const { code, out, err } = await capture(args, { OPENAI_API_KEY: KEY });
    expect(code).toBe(EXIT.ok);
    expect(err).toContain('with the key in OPENAI_API_KEY');
    expect(out).toMatch(/^tool call {2}get_local_time\(\{"city":"Paris"\}\) {2}\d+ ms$/m);
    expect(out).toMatch(/^answer {5}The tool answered: .*14:05/m);
    expect(out).toMatch(/^total {6}\d+ ms$/m);
    expect(out).toContain('OK: test-model called a tool');
    expect(out + err).not.toContain(KEY);
  });

  it('prints JSON with --json', async () => {
    server = await startOpenAIServer();
    const { code, out } = await capture([
      'test',
      '--json',
      '--base-url',
      server.url,
      '--model',
      'test-model',
    ]);
    expect(code).toBe(EXIT.ok);
    const report = JSON.parse(out) as Record<string, unknown>;
    expect(report).toMatchObject({
      ok: true,
      provider: 'openai',
      model: 'test-model',
      toolCall: { name: 'get_local_time', arguments: '{"city":"Paris"}' },
    });
    expect(report.totalMs).toBeGreaterThanOrEqual(report.toolCallMs as number);
  });

  it('fails with exit 1 and the classified error, keeping the key out of it', async () => {
    server = await startOpenAIServer({ requireKey: 'another-key' });
    const args = ['test', '--base-url', server.url, '--model', 'test-model', '--api-key-env', 'K'];
    const { code, out, err } = await capture(args, { K: KEY });
    expect(code).toBe(EXIT.problems);
    expect(out).toMatch(/^FAILED at the tool call after \d+ ms \(auth, HTTP 401\):/);
    expect(out).toContain('The provider refused the API key');
    expect(out + err).not.toContain(KEY);
    const json = await capture([...args, '--json'], { K: KEY });
    expect(JSON.parse(json.out)).toMatchObject({
      ok: false,
      step: 'tool-call',
      error: { kind: 'auth', status: 401 },
    });
  });

  it('reports an unknown model as not-found', async () => {
    server = await startOpenAIServer({ models: ['test-model'] });
    const { code, out } = await capture(['test', '--base-url', server.url, '--model', 'nope']);
    expect(code).toBe(EXIT.problems);
    expect(out).toContain('(not-found, HTTP 404)');
    expect(out).toContain('"nope"');
  });

  it('passes against an Anthropic server with --provider anthropic', async () => {
    server = await startAnthropicServer({ requireKey: KEY });
    const { code, out } = await capture(
      ['test', '--provider', 'anthropic', '--base-url', server.url, '--model', 'test-model'],
      { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: 'wrong' },
    );
    expect(code).toBe(EXIT.ok);
    expect(out).toContain('tool call  get_local_time({"city":"Paris"})');
  });

  it('refuses a key on the command line without printing it, and wrong usage, with exit 2', async () => {
    for (const argv of [
      ['test', '--base-url', 'http://x', '--model', 'm', '--api-key', KEY],
      ['test', '--base-url', 'http://x', '--model', 'm', `--api-key=${KEY}`],
    ]) {
      const { code, out, err } = await capture(argv);
      expect(code).toBe(EXIT.usage);
      expect(err).toContain('--api-key-env');
      expect(out + err).not.toContain(KEY);
    }
    expect((await capture(['test', '--model', 'm'])).err).toContain('needs --base-url');
    expect((await capture(['test', '--base-url', 'http://x'])).err).toContain('needs --model');
    const provider = await capture([
      'test',
      '--base-url',
      'http://x',
      '--model',
      'm',
      '--provider',
      'x',
    ]);
    expect(provider.code).toBe(EXIT.usage);
    const unset = await capture([
      'test',
      '--base-url',
      'http://x',
      '--model',
      'm',
      '--api-key-env',
      'NOPE',
    ]);
    expect(unset.code).toBe(EXIT.usage);
    expect(unset.err).toContain('NOPE');
  });

  it('is reached from runCli and listed in its help', async () => {
    server = await startOpenAIServer();
    let out = '';
    const io = { out: (t: string) => (out += t), err: () => undefined };
    const code = await runCli(
      ['models', 'test', '--base-url', server.url, '--model', 'm'],
      '1',
      io,
    );
    expect(code).toBe(EXIT.ok);
    expect(out).toContain('OK:');
    out = '';
    await runCli(['--help'], '1', io);
    expect(out).toContain('policylab models test --base-url URL --model NAME');
  });

  // Starting Node and tsx takes seconds on a loaded two-core machine: a generous limit.
  it('runs as a real process, taking the key from the environment', async () => {
    server = await startOpenAIServer({ requireKey: KEY });
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['bin/policylab.js', 'models', 'test', '--base-url', server.url, '--model', 'test-model'],
      { env: { ...process.env, OPENAI_API_KEY: KEY } },
    );
    expect(stdout).toContain('OK: test-model');
    expect(stdout + stderr).not.toContain(KEY);
  });
});
