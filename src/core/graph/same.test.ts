import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { miniProject, miniWith } from '../testing/miniProject.ts';
import { buildGraph } from './build.ts';
import { sameGraph } from './same.ts';

const graphOf = (project: ReturnType<typeof miniProject>) =>
  buildGraph(parseProject(project).model);

describe('sameGraph', () => {
  it('holds for two builds of one project, even after an edit elsewhere', () => {
    const a = graphOf(miniProject());
    const b = graphOf(miniWith('rules.yaml', 'guards:', '# a note\nguards:'));
    expect(a).not.toBe(b);
    expect(sameGraph(a, b)).toBe(true);
  });

  it('fails when a policy field changes', () => {
    const a = graphOf(miniProject());
    const b = graphOf(miniWith('policies.yaml', 'challenge: 2', 'challenge: 5'));
    expect(sameGraph(a, b)).toBe(false);
  });
});
