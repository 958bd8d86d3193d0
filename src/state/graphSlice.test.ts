import { describe, expect, it } from 'vitest';
import { analyzeProject, buildGraph, setRelation } from '../core/index.ts';
import { miniProject } from '../core/testing/miniProject.ts';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';
import { graphSelectors } from './graphSelectors.ts';

function storeWithMini() {
  return createAppStore(testServices(), { project: miniProject() });
}

describe('graph slice', () => {
  it('turns a graph edit into one undo step of policies.yaml, and reports a refused one', () => {
    const store = storeWithMini();
    const [a, b] = analyzeProject(miniProject()).model.policies.map((p) => p.id);
    if (!a || !b) throw new Error('the mini project has two policies');
    const before = store.getState().project.files['policies.yaml'];
    expect(store.getState().editPolicies('Connect', (t) => setRelation(t, a, b, 7))).toBe(true);
    expect(store.getState().project.files['policies.yaml']).toContain(`between: [${a}, ${b}]`);
    expect(store.getState().editPolicies('Connect', (t) => setRelation(t, a, 'nobody', 7))).toBe(
      false,
    );
    expect(store.getState().graphMessage).toMatch(/nobody/);
    expect(store.getState().undo('policies.yaml')).toBe(true);
    expect(store.getState().project.files['policies.yaml']).toBe(before);
  });

  it('keeps hand-placed positions in the project, and the layout leaves them where they are', async () => {
    const store = storeWithMini();
    const graph = buildGraph(analyzeProject(miniProject()).model);
    const [first] = graph.nodes;
    if (!first) throw new Error('no policies');
    store.getState().placePolicies({ [first.id]: { x: 500, y: -300 } });
    expect(store.getState().project.layout).toEqual({ [first.id]: { x: 500, y: -300 } });
    await store.getState().runLayout(graph, { fresh: true });
    const { positions, progress, error } = store.getState().graphLayout;
    expect(error).toBeNull();
    expect(progress).toBeNull();
    expect(positions.get(first.id)).toEqual({ x: 500, y: -300 });
    expect(positions.size).toBe(graph.nodes.length);
    store.getState().clearPlacements();
    expect(store.getState().project.layout).toBeUndefined();
  });

  it('keeps the same graph object when a re-analysis changes nothing it draws', async () => {
    const store = createAppStore(testServices({ analysisDelayMs: 0 }), { project: miniProject() });
    const analysed = () =>
      new Promise<void>((resolve) => {
        const check = () => {
          const { analysis, project } = store.getState();
          if (analysis?.files === project.files) resolve();
          else setTimeout(check, 1);
        };
        check();
      });
    await analysed();
    const first = graphSelectors(store).selectPolicyGraph(store.getState());
    expect(first.nodes.length).toBeGreaterThan(0);
    const model = store.getState().analysis?.model;

    store
      .getState()
      .setFileText('rules.yaml', `${store.getState().project.files['rules.yaml']}# note\n`);
    await analysed();
    expect(store.getState().analysis?.model).not.toBe(model);
    expect(graphSelectors(store).selectPolicyGraph(store.getState())).toBe(first);

    const policies = store.getState().project.files['policies.yaml'];
    store.getState().setFileText('policies.yaml', policies.replace('challenge: 2', 'challenge: 4'));
    await analysed();
    expect(graphSelectors(store).selectPolicyGraph(store.getState())).not.toBe(first);
  });
});

describe('the graph while policies.yaml does not parse', () => {
  it('keeps the graph as it last parsed and says why, until the YAML is whole again', () => {
    const store = storeWithMini();
    const selectors = graphSelectors(store);
    const project = miniProject();
    store.getState().setAnalysis(analyzeProject(project), project.files);
    const whole = selectors.selectPolicyGraph(store.getState());
    expect(whole.nodes.length).toBeGreaterThan(0);
    expect(selectors.selectGraphStale(store.getState())).toBeNull();

    // A typo after an id breaks the YAML: the graph stays, and the reason is named.
    const text = project.files['policies.yaml'];
    const typo = text.replace('- id: refund-window', '- id: refund-window: [oops');
    const broken = { ...project, files: { ...project.files, 'policies.yaml': typo } };
    store.getState().setAnalysis(analyzeProject(broken), broken.files);
    expect(selectors.selectPolicyGraph(store.getState())).toBe(whole);
    expect(selectors.selectGraphStale(store.getState())).toMatchObject({
      file: 'policies.yaml',
      code: 'yaml-syntax',
    });

    // Fixed (with a new policy): the graph is the text's own again.
    const grown = text.replace(
      'policies:\n',
      'policies:\n  - id: new-one\n    text: A new one.\n    category: refunds\n    challenge: 1\n',
    );
    const fixed = { ...project, files: { ...project.files, 'policies.yaml': grown } };
    store.getState().setAnalysis(analyzeProject(fixed), fixed.files);
    expect(selectors.selectGraphStale(store.getState())).toBeNull();
    expect(selectors.selectPolicyGraph(store.getState()).nodes.map((n) => n.id)).toContain(
      'new-one',
    );
  });
});
