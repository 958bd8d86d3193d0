import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../core/format/parseProject.ts';
import type { IdeQuery } from '../core/ide/queries.ts';
import { referencesOf } from '../core/ide/references.ts';
import { definitionOf, symbolAt } from '../core/ide/symbols.ts';
import type { Project, ProjectFileName } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { createIdeClient } from './ideClient.ts';
import type { IdeRequest, IdeResponse } from './ideProtocol.ts';
import { createIdeServer } from './ideProtocol.ts';

const mini: Project = { name: 'Mini', files: MINI_FILES };

/** A query at the first place `needle` is written in `file`, `into` characters into it. */
function at(
  file: ProjectFileName,
  needle: string,
  kind: 'symbol' | 'definition' | 'references' = 'references',
  into = 1,
  project = mini,
): IdeQuery {
  const text = project.files[file];
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`${needle} is not in ${file}`);
  return { kind, file, text, offset: offset + into };
}

/** A server that counts its parses. */
function countingServer() {
  let parses = 0;
  const serve = createIdeServer((project) => {
    parses += 1;
    return parseProject(project);
  });
  return { serve, parses: () => parses };
}

/** A stand-in Web Worker running the IDE server in-process; answers when the test says. */
class FakeWorker {
  onmessage: ((event: { data: IdeResponse }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  readonly requests: IdeRequest[] = [];
  terminated = false;
  private readonly serve: (request: IdeRequest) => IdeResponse;
  constructor(serve: (request: IdeRequest) => IdeResponse) {
    this.serve = serve;
  }
  postMessage(request: IdeRequest) {
    // Messages are copied across threads: so are they here.
    this.requests.push(structuredClone(request));
  }
  terminate() {
    this.terminated = true;
  }
  /** Answers every request not yet answered, in order. */
  answerAll() {
    for (const request of this.requests.splice(0))
      this.onmessage?.({ data: structuredClone(this.serve(request)) });
  }
  crash(message: string) {
    this.onerror?.({ message, preventDefault: () => undefined });
  }
}

describe('the IDE worker’s answers', () => {
  it('answer as core does on this thread: definition, references, the name, a rename', () => {
    const { serve } = countingServer();
    const parsed = parseProject(mini);
    const query = at('rules.yaml', 'refund_order:');
    const symbol = symbolAt(parsed.model, query.text, query.offset);
    expect(symbol).toEqual({ kind: 'tool', name: 'refund_order' });
    if (!symbol) return;
    const answer = (q: IdeQuery) => {
      const response = serve({ id: 1, project: mini, query: q });
      if (!response.ok) throw new Error(response.error);
      return response.answer;
    };
    expect(answer({ ...query, kind: 'definition' })).toEqual({
      symbol,
      places: [definitionOf(parsed, symbol)],
    });
    expect(answer(query)).toEqual({ symbol, places: referencesOf(mini, parsed, symbol) });
    expect(answer({ ...query, kind: 'symbol' })).toEqual({ symbol, places: [] });
    expect(answer({ ...query, kind: 'rename', newName: 'give_back' })).toEqual({
      symbol,
      places: referencesOf(mini, parsed, symbol),
    });
    expect(answer({ ...query, kind: 'rename', newName: 'Give Back' }).error).toMatch(
      /is not a valid name/,
    );
    expect(answer(at('rules.yaml', 'decision', 'definition'))).toEqual({
      symbol: null,
      places: [],
    });
  });

  it('parse a project once while its texts stay the same, and again once one changes', () => {
    const { serve, parses } = countingServer();
    serve({ id: 1, project: mini, query: at('rules.yaml', 'refund_order:', 'symbol') });
    // A copy across threads is a new object with the same texts: still the same project.
    serve({ id: 2, project: structuredClone(mini), query: at('rules.yaml', 'refund_order:') });
    expect(parses()).toBe(1);
    const edited: Project = {
      ...mini,
      files: { ...mini.files, 'agent.md': `${mini.files['agent.md']}\nOne more line.` },
    };
    serve({ id: 3, project: edited, query: at('rules.yaml', 'refund_order:') });
    expect(parses()).toBe(2);
  });

  it('never throw: a failing parse is an answer that says so', () => {
    const serve = createIdeServer(() => {
      throw new Error('out of memory');
    });
    expect(serve({ id: 7, project: mini, query: at('rules.yaml', 'refund_order:') })).toEqual({
      id: 7,
      ok: false,
      error: 'out of memory',
    });
  });

  it('are core’s own for any cursor', () => {
    const { serve } = countingServer();
    const parsed = parseProject(mini);
    fc.assert(
      fc.property(
        fc.constantFrom<ProjectFileName>('rules.yaml', 'policies.yaml', 'tools.yaml'),
        fc.nat(),
        fc.constantFrom('symbol', 'definition', 'references'),
        (file, cursor, kind) => {
          const text = mini.files[file];
          const offset = cursor % (text.length + 1);
          const response = serve({ id: 1, project: mini, query: { kind, file, text, offset } });
          const symbol = symbolAt(parsed.model, text, offset) ?? null;
          const definition = symbol && definitionOf(parsed, symbol);
          const places = !symbol
            ? []
            : kind === 'definition'
              ? definition
                ? [definition]
                : []
              : kind === 'references'
                ? referencesOf(mini, parsed, symbol)
                : [];
          expect(response).toEqual({ id: 1, ok: true, answer: { symbol, places } });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the IDE client', () => {
  function setUp() {
    const { serve, parses } = countingServer();
    const workers: FakeWorker[] = [];
    const ask = createIdeClient(() => {
      const worker = new FakeWorker(serve);
      workers.push(worker);
      return worker as unknown as Worker;
    });
    return { ask, workers, parses };
  }

  it('asks the worker, which parses; answers come back in the order asked', async () => {
    const { ask, workers, parses } = setUp();
    const definition = ask(mini, at('rules.yaml', 'refund_order:', 'definition'));
    const references = ask(mini, at('rules.yaml', 'refund_order:'));
    expect(parses()).toBe(0);
    expect(workers).toHaveLength(1);
    workers[0]?.answerAll();
    expect((await definition).places.map((p) => p.isDefinition)).toEqual([true]);
    expect((await references).places.length).toBeGreaterThan(1);
    expect(parses()).toBe(1);
  });

  it('a crashed worker rejects what it was asked, and the next question gets a fresh one', async () => {
    const { ask, workers } = setUp();
    const lost = ask(mini, at('rules.yaml', 'refund_order:'));
    workers[0]?.crash('boom');
    await expect(lost).rejects.toThrow("The editor's worker stopped: boom");
    expect(workers[0]?.terminated).toBe(true);
    const again = ask(mini, at('rules.yaml', 'refund_order:', 'symbol'));
    expect(workers).toHaveLength(2);
    workers[1]?.answerAll();
    expect((await again).symbol).toEqual({ kind: 'tool', name: 'refund_order' });
  });

  it('answers on this thread where no worker can be made', async () => {
    const ask = createIdeClient(() => {
      throw new Error('Worker is not defined');
    });
    const answer = await ask(mini, at('rules.yaml', 'refund_order:', 'symbol'));
    expect(answer.symbol).toEqual({ kind: 'tool', name: 'refund_order' });
  });
});
