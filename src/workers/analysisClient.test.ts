import { describe, expect, it } from 'vitest';
import type { Project } from '../core/index.ts';
import { analyzeProject } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { Superseded, createWorkerAnalyzer } from './analysisClient.ts';
import type { AnalyzeRequest, AnalyzeResponse } from './protocol.ts';

/** The mini project, and a later version of it with one unknown policy in rules.yaml. */
const v1: Project = { name: 'Mini', files: MINI_FILES };
const v2: Project = {
  name: 'Mini',
  files: {
    ...MINI_FILES,
    'rules.yaml': MINI_FILES['rules.yaml'].replace(
      'policy: verify-identity',
      'policy: verify-identiti',
    ),
  },
};

/** What the worker answers for a project: analysis.worker.ts's reply. */
function analysisOf(project: Project) {
  const { model, diagnostics } = analyzeProject(project);
  return { model, diagnostics };
}

/** A stand-in for a Web Worker: records what it is sent; the test answers for it. */
class FakeWorker {
  onmessage: ((event: { data: AnalyzeResponse }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  readonly requests: AnalyzeRequest[] = [];
  terminated = false;

  postMessage(request: AnalyzeRequest) {
    // Messages are copied across threads: so are they here.
    this.requests.push(structuredClone(request));
  }
  terminate() {
    this.terminated = true;
  }
  /** Answers request `index` (the last when absent) as analysis.worker.ts does. */
  answer(index = this.requests.length - 1) {
    const request = this.requests[index];
    if (!request) throw new Error(`request ${index} was never sent`);
    this.reply({ id: request.id, ok: true, ...analysisOf(request.project) });
  }
  reply(response: AnalyzeResponse) {
    this.onmessage?.({ data: structuredClone(response) });
  }
  crash(message: string) {
    this.onerror?.({ message, preventDefault: () => undefined });
  }
}

function setup() {
  const workers: FakeWorker[] = [];
  const analyze = createWorkerAnalyzer(() => {
    const worker = new FakeWorker();
    workers.push(worker);
    return worker as unknown as Worker;
  });
  return { analyze, workers };
}

describe('createWorkerAnalyzer', () => {
  it('sends the project to the worker and resolves with its answer, keeping the worker', async () => {
    const { analyze, workers } = setup();
    const first = analyze(v1);
    expect(workers[0]?.requests.map((r) => r.project)).toEqual([v1]);
    workers[0]?.answer();
    expect(await first).toEqual(analysisOf(v1));

    const second = analyze(v2);
    workers[0]?.answer();
    expect(await second).toEqual(analysisOf(v2));
    expect((await second).diagnostics.map((d) => d.code)).toContain('unknown-policy');
    expect(workers).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(false);
  });

  it('a new request ends the worker still busy with the old one instead of queueing behind it', async () => {
    const { analyze, workers } = setup();
    // The worker holds the first request: it is still working on v1 when v2 comes.
    const older = analyze(v1);
    const olderRejected = expect(older).rejects.toBeInstanceOf(Superseded);
    const newer = analyze(v2);
    expect(workers[0]?.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(workers[1]?.requests.map((r) => r.project)).toEqual([v2]);
    await olderRejected;
    // An answer the old worker had already sent goes nowhere; the new worker's is the one.
    workers[0]?.answer(0);
    workers[1]?.answer();
    expect(await newer).toEqual(analysisOf(v2));
    expect(workers[1]?.terminated).toBe(false);
  });

  it('keeps a worker that answered before the next request came', async () => {
    const { analyze, workers } = setup();
    const first = analyze(v1);
    workers[0]?.answer();
    await first;
    const second = analyze(v2);
    workers[0]?.answer();
    expect(await second).toEqual(analysisOf(v2));
    expect(workers).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(false);
  });

  it('does not take an answer meant for another request', async () => {
    const { analyze, workers } = setup();
    const pending = analyze(v2);
    const request = workers[0]?.requests[0];
    if (!request) throw new Error('nothing was asked');
    workers[0]?.reply({ id: request.id + 1, ok: true, ...analysisOf(v1) });
    workers[0]?.reply({ id: request.id, ok: true, ...analysisOf(v2) });
    expect(await pending).toEqual(analysisOf(v2));
  });

  it('rejects with the error the analysis raised, and the next request still works', async () => {
    const { analyze, workers } = setup();
    const failing = analyze(v1);
    workers[0]?.reply({ id: workers[0].requests[0]?.id ?? 0, ok: false, error: 'bad YAML' });
    await expect(failing).rejects.toThrow(/^bad YAML$/);
    expect(await failing.catch((error: unknown) => error)).not.toBeInstanceOf(Superseded);

    const next = analyze(v2);
    workers[0]?.answer();
    expect(await next).toEqual(analysisOf(v2));
  });

  it('says a crashed worker stopped, and starts a new one for the next request', async () => {
    const { analyze, workers } = setup();
    const pending = analyze(v1);
    workers[0]?.crash('out of memory');
    await expect(pending).rejects.toThrow('The analysis worker stopped: out of memory');
    expect(workers[0]?.terminated).toBe(true);

    const next = analyze(v2);
    expect(workers).toHaveLength(2);
    expect(workers[0]?.requests).toHaveLength(1);
    workers[1]?.answer();
    expect(await next).toEqual(analysisOf(v2));
  });

  it('analyses on this thread where workers cannot be made', async () => {
    const analyze = createWorkerAnalyzer(() => {
      throw new Error('Workers are not supported here.');
    });
    expect(await analyze(v2)).toMatchObject(analysisOf(v2));
  });
});
