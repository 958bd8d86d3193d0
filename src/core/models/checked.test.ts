import { describe, expect, it } from 'vitest';
import type { ScriptedAnswer, ScriptedCall } from '../../test/scriptedModels.ts';
import { instantRuntime, modelReply, queuedEngine } from '../../test/scriptedModels.ts';
import type { ChatRequest, ChatResponse } from './chat.ts';
import { checkResponse, checkedChat } from './checked.ts';
import { testConnection } from './connectionTest.ts';
import { ModelError } from './errors.ts';

const runtime = instantRuntime;
const answer = modelReply;
/** An engine that answers from a list, and keeps every request it got. */
const scripted = (...answers: ScriptedAnswer[]) => queuedEngine(answers);

const WEATHER = {
  name: 'get_weather',
  description: 'Weather in a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', enum: ['Paris', 'Tokyo'] } },
    required: ['city'],
  },
};

const call = (args: string, name = 'get_weather'): ScriptedCall => ({
  id: 'c1',
  name,
  args,
});
const ask = (extra: { [K in keyof ChatRequest]?: ChatRequest[K] | undefined } = {}): ChatRequest =>
  withoutUndefined({
    model: 'm',
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    tools: [WEATHER],
    ...extra,
  });

function withoutUndefined(value: object): ChatRequest {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as unknown as ChatRequest;
}

describe('checkResponse', () => {
  it('accepts a valid tool call and an empty argument string', () => {
    expect(checkResponse(ask(), answer('', [call('{"city":"Paris"}')])).ok).toBe(true);
    const noArgs = { ...WEATHER, parameters: { type: 'object' } };
    expect(checkResponse(ask({ tools: [noArgs] }), answer('', [call('')])).ok).toBe(true);
  });

  it('names what is wrong with a bad answer', () => {
    const cases: [ChatRequest, ChatResponse, string, RegExp][] = [
      [ask(), answer('', [call('{"city": Paris}')]), 'malformed-output', /not a JSON object/],
      [ask(), answer('', [call('[1]')]), 'malformed-output', /not a JSON object/],
      [
        ask(),
        answer('', [call('{}', 'get_time')]),
        'malformed-output',
        /"get_time" that does not exist/,
      ],
      [ask(), answer('', [call('{"city":"Rome"}')]), 'schema-violation', /at \/city/],
      [ask(), answer('', [call('{}')]), 'schema-violation', /required field "city"/],
      [
        ask({ toolChoice: 'required' }),
        answer('It is sunny.'),
        'malformed-output',
        /answered with text/,
      ],
    ];
    for (const [request, response, kind, message] of cases) {
      const result = checkResponse(request, response);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.problem.kind).toBe(kind);
        expect(result.problem.message).toMatch(message);
      }
    }
  });

  it('parses a JSON answer, fenced or not, and holds it to the schema', () => {
    const schema = {
      name: 'verdict',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    };
    const request = ask({ tools: undefined, responseSchema: schema });
    expect(checkResponse(request, answer('{"ok": true}'))).toEqual({
      ok: true,
      json: { ok: true },
    });
    expect(checkResponse(request, answer('```json\n{"ok": false}\n```'))).toEqual({
      ok: true,
      json: { ok: false },
    });
    expect(checkResponse(request, answer('yes'))).toMatchObject({
      ok: false,
      problem: { kind: 'malformed-output' },
    });
    expect(checkResponse(request, answer('{"ok": "yes"}'))).toMatchObject({
      ok: false,
      problem: { kind: 'schema-violation' },
    });
  });

  it('does not blame the model for a schema that cannot compile', () => {
    const broken = { ...WEATHER, parameters: { type: 'no-such-type' } };
    expect(checkResponse(ask({ tools: [broken] }), answer('', [call('{"x":1}')])).ok).toBe(true);
  });
});

describe('checkedChat', () => {
  it('a call that answers badly twice fails carrying the tokens both answers spent', async () => {
    const { engine } = scripted(
      answer('', [call('{"city": Paris')], { inputTokens: 300, outputTokens: 40 }),
      answer('', [call('{"city":"Oslo"}')], { inputTokens: 350, outputTokens: 30 }),
    );
    const failed = await checkedChat(engine, ask(), { runtime }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ModelError);
    expect((failed as ModelError).usage).toEqual({ inputTokens: 650, outputTokens: 70 });
  });

  it('a repair the provider fails still carries the bad first answer’s tokens', async () => {
    const { engine } = scripted(
      answer('', [call('[1]')], { inputTokens: 300, outputTokens: 40 }),
      new ModelError('auth', 'The provider refused the API key (401).', { status: 401 }),
    );
    const failed = await checkedChat(engine, ask(), { runtime }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ kind: 'auth', status: 401 });
    expect((failed as ModelError).usage).toEqual({ inputTokens: 300, outputTokens: 40 });
  });

  it('repairs a malformed tool call once, telling the model what was wrong, and sums usage', async () => {
    const { engine, requests } = scripted(
      answer('', [call('{"city": Paris')]),
      answer('', [call('{"city":"Paris"}')]),
    );
    const result = await checkedChat(engine, ask(), { runtime });
    expect(result.repaired).toBe(true);
    expect(result.message.toolCalls?.[0]?.arguments).toBe('{"city":"Paris"}');
    expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 20 });
    const repair = requests[1]?.messages ?? [];
    expect(repair.at(-2)).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'c1' }] });
    expect(repair.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1' });
    expect(repair.at(-1)?.content).toMatch(/not a JSON object/);
  });

  it('fails with a model-fault error when the repair is bad too, and never tries a third time', async () => {
    const { engine, requests } = scripted(
      answer('', [call('{"city":"Rome"}')]),
      answer('', [call('{"city":"Oslo"}')]),
      answer('', [call('{"city":"Paris"}')]),
    );
    const error = await checkedChat(engine, ask(), { runtime }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('schema-violation');
    expect((error as ModelError).modelFault).toBe(true);
    expect(requests).toHaveLength(2);
  });

  it('repairs a JSON answer with a user turn and returns the parsed value', async () => {
    const schema = { name: 'n', schema: { type: 'object', required: ['n'] } };
    const { engine, requests } = scripted(answer('Sure! n is 3'), answer('{"n": 3}'));
    const result = await checkedChat(engine, ask({ tools: undefined, responseSchema: schema }), {
      runtime,
    });
    expect(result.json).toEqual({ n: 3 });
    expect(requests[1]?.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('retries provider failures without spending the repair', async () => {
    const { engine, requests } = scripted(
      new ModelError('server', 'down', { status: 500 }),
      answer('', [call('{"city":"Tokyo"}')]),
    );
    const result = await checkedChat(engine, ask(), { runtime });
    expect(result.repaired).toBe(false);
    expect(requests).toHaveLength(2);
  });
});

describe('testConnection', () => {
  let now = 0;
  const clock = () => (now += 25);

  it('passes on a tool call followed by an answer, and times both', async () => {
    const { engine, requests } = scripted(
      answer('', [{ id: 't1', name: 'get_local_time', args: { city: 'Paris' } }]),
      answer('It is 14:05 in Paris.'),
    );
    const report = await testConnection(engine, 'm', { clock, runtime });
    expect(report).toMatchObject({
      ok: true,
      toolCallMs: 25,
      totalMs: 50,
      answer: 'It is 14:05 in Paris.',
    });
    expect(requests[0]?.toolChoice).toBe('required');
    expect(requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 't1' });
  });

  it('says which step failed and why', async () => {
    const { engine } = scripted(new ModelError('auth', 'The provider refused the API key (401).'));
    const report = await testConnection(engine, 'm', { clock, runtime });
    expect(report).toMatchObject({ ok: false, step: 'tool-call', error: { kind: 'auth' } });

    const textOnly = scripted(answer('I cannot use tools.'), answer('Still no.'));
    const second = await testConnection(textOnly.engine, 'm', { clock, runtime });
    expect(second).toMatchObject({
      ok: false,
      step: 'tool-call',
      error: { kind: 'malformed-output' },
    });
  });
});
