import { describe, expect, it } from 'vitest';
import type { Project } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { testServices } from '../test/services.ts';
import type { IdeAsk } from '../workers/ideClient.ts';
import { ideInThread } from '../workers/ideClient.ts';
import { createAppStore } from './createAppStore.ts';

describe('askIde', () => {
  it('asks the IDE service about the project as it is now', async () => {
    const seen: Project[] = [];
    const ide: IdeAsk = (project, query) => {
      seen.push(project);
      return ideInThread(project, query);
    };
    const store = createAppStore(testServices({ ide }), {
      project: { name: 'Mini', files: MINI_FILES },
    });
    store.getState().setFileText('agent.md', 'Changed.');
    const text = MINI_FILES['rules.yaml'];
    const answer = await store.getState().askIde({
      kind: 'definition',
      file: 'rules.yaml',
      text,
      offset: text.indexOf('refund_order:') + 1,
    });
    expect(seen).toEqual([store.getState().project]);
    expect(answer.places[0]).toMatchObject({ file: 'tools.yaml', isDefinition: true });
  });
});
