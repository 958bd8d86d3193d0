import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatEngine } from '../../core/index.ts';
import { analyzeProject, buildGraph } from '../../core/index.ts';
import { AppStoreProvider } from '../../state/AppStoreProvider.tsx';
import { storeWithEngine, withEndpointModels } from '../../test/modelStore.ts';
import { modelReply } from '../../test/scriptedModels.ts';
import { PolicyDetails } from '../graph/PolicyDetails.tsx';
import { ModelExtract } from './ModelExtract.tsx';

const AGENT = `# Lockers

Open a locker only for its renter.
Never open a locker after <b>closing</b>.

# Lost keys

Open a locker only for its renter.
`;

const rule = (text: string) => ({
  text,
  category: 'general',
  challenge: 2,
  tools: [],
  quote: text,
});

/** Answers each section with its rules, as a model would. */
const engine: ChatEngine = {
  chat: (request) => {
    const lockers = (request.messages[0]?.content ?? '').includes('("Lockers")');
    const policies = lockers
      ? [
          rule('Open a locker only for its renter.'),
          rule('Never open a locker after <b>closing</b>.'),
        ]
      : [rule('Open a locker only for its renter.')];
    return Promise.resolve(modelReply(JSON.stringify({ policies })));
  },
};

async function ready(
  policies = 'policies:\n  - { id: greet, text: Greet the renter., category: tone, challenge: 1 }\n',
) {
  const { store } = storeWithEngine(engine);
  const id = await withEndpointModels(store);
  store.getState().setRoleModel('generator', { engine: id, model: 'm' });
  store.getState().setFileText('agent.md', AGENT);
  store.getState().setFileText('policies.yaml', policies);
  const analyse = () => {
    const { project } = store.getState();
    store.getState().setAnalysis(analyzeProject(project), project.files);
  };
  analyse();
  return { store, analyse };
}

describe('ModelExtract', () => {
  it('shows the proposals as text and the lines the ticked ones add, then adds them', async () => {
    const { store, analyse } = await ready();
    let added = 0;
    render(
      <AppStoreProvider store={store}>
        <ModelExtract onAdded={() => (added += 1)} />
      </AppStoreProvider>,
    );
    expect((await screen.findByLabelText('Estimate')).textContent).toContain(
      'To read 2 sections (2 flows) with m: about 2 calls',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Ask the model' }));
    const list = await screen.findByRole('list', { name: 'Proposals' });
    // What the model wrote is text: its markup shows as written, nothing is rendered from it.
    expect(list.textContent).toContain('Never open a locker after <b>closing</b>.');
    expect(list.querySelector('b')).toBeNull();
    expect(list.textContent).toContain('Flows: Lockers, Lost keys.');

    const diff = screen.getByRole('region', { name: 'Changes to policies.yaml' });
    expect(diff.textContent).toContain('flows: [Lockers, Lost keys]');
    const never = within(list)
      .getAllByRole('listitem')
      .find((li) => li.textContent.includes('Never open'));
    if (!never) throw new Error('no proposal');
    fireEvent.click(within(never).getByRole('checkbox'));
    expect(diff.textContent).not.toContain('Never open');

    fireEvent.click(screen.getByRole('button', { name: 'Add 1 policy to policies.yaml' }));
    expect(added).toBe(1);
    const text = store.getState().project.files['policies.yaml'];
    expect(text).toContain('flows: [Lockers, Lost keys]');
    expect(text).not.toContain('Never open');

    // The graph's details panel names the flows of the added policy.
    analyse();
    const model = store.getState().analysis?.model;
    const policy = model?.policies.find((p) => p.text.startsWith('Open a locker'));
    if (!model || !policy) throw new Error('not added');
    render(
      <AppStoreProvider store={store}>
        <PolicyDetails
          graph={buildGraph(model)}
          policyId={policy.id}
          edge={null}
          onShowInEditor={() => {}}
          onClose={() => {}}
        />
      </AppStoreProvider>,
    );
    expect(screen.getByLabelText('Flows').textContent).toBe('Flows: Lockers, Lost keys.');
  });

  it('leaves unticked what policies.yaml holds, and never counts it as added', async () => {
    const { store } = await ready(
      'policies:\n  - { id: renter-only, text: Open a locker only for its renter., category: general, challenge: 2 }\n',
    );
    render(
      <AppStoreProvider store={store}>
        <ModelExtract onAdded={() => {}} />
      </AppStoreProvider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Ask the model' }));
    const list = await screen.findByRole('list', { name: 'Proposals' });
    const held = within(list)
      .getAllByRole('listitem')
      .find((li) => li.textContent.includes('already has it (renter-only)'));
    if (!held) throw new Error('not marked as held');
    const box = within(held).getByRole('checkbox');
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Add 1 policy to policies.yaml' })).toBeTruthy();
    fireEvent.click(box);
    expect(screen.getByRole('button', { name: 'Add 1 policy to policies.yaml' })).toBeTruthy();
  });
});
