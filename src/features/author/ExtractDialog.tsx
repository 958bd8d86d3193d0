import { useState } from 'react';
import type { CandidatePolicy } from '../../core/index.ts';
import { addPoliciesToYaml, extractPolicies, newCandidates } from '../../core/index.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { TabList, tabPanelProps } from '../../ui/TabList.tsx';
import { CandidateItem, withTick } from './CandidateItem.tsx';
import { ModelExtract } from './ModelExtract.tsx';

type Way = 'rules' | 'model';

/**
 * "Extract policies": what the rules find in agent.md that policies.yaml lacks, and next to it
 * what a model proposes when asked. The ones the user keeps are added to policies.yaml as a
 * minimal edit (comments and formatting stay), which Ctrl+Z undoes.
 */
export function ExtractDialog({ onClose }: { onClose: () => void }) {
  const store = useAppStoreApi();
  // Read once when the dialog opens: the candidates are a snapshot the user reviews.
  const [candidates] = useState<readonly CandidatePolicy[]>(() => {
    const { project, analysis } = store.getState();
    const found = extractPolicies(project.files['agent.md'], analysis?.model.tools ?? []);
    return newCandidates(found, analysis?.model.policies ?? []);
  });
  const [way, setWay] = useState<Way>('rules');
  const openFile = useAppStore((s) => s.openFile);
  const close = () => {
    store.getState().dismissExtraction();
    onClose();
  };
  const added = () => {
    openFile('policies.yaml');
    close();
  };

  return (
    <Dialog open title="Extract policies" onClose={close} wide>
      <TabList
        label="How to extract"
        idPrefix="extract"
        className="extract-tabs"
        tabs={[
          { id: 'rules', label: `Found by rules (${candidates.length})` },
          { id: 'model', label: 'Ask a model' },
        ]}
        selected={way}
        onSelect={setWay}
      />
      {/* Both stay mounted, so switching tabs keeps what is ticked. */}
      <div {...tabPanelProps('extract', 'rules')} hidden={way !== 'rules'}>
        <RuleCandidates candidates={candidates} onAdded={added} onCancel={close} />
      </div>
      <div {...tabPanelProps('extract', 'model')} hidden={way !== 'model'}>
        <ModelExtract onAdded={added} />
      </div>
    </Dialog>
  );
}

/** The rules' candidates, each ticked; the ticked ones are added on request. */
function RuleCandidates({
  candidates,
  onAdded,
  onCancel,
}: {
  candidates: readonly CandidatePolicy[];
  onAdded: () => void;
  onCancel: () => void;
}) {
  const store = useAppStoreApi();
  const setFileText = useAppStore((s) => s.setFileText);
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  const chosen = candidates.filter((c) => !skipped.has(c.id));
  if (candidates.length === 0)
    return <p>Every rule found in agent.md is already a policy in policies.yaml.</p>;
  return (
    <>
      <p className="dialog-note">
        Each list item and each sentence that sets a rule became a candidate policy, filed under its
        heading. Untick the ones you do not want.
      </p>
      <ul className="candidate-list">
        {candidates.map((c) => (
          <CandidateItem
            key={c.id}
            candidate={c}
            where={`line ${c.source.line}`}
            ticked={!skipped.has(c.id)}
            onTick={(ticked) => {
              setSkipped(withTick(skipped, c.id, ticked));
            }}
          />
        ))}
      </ul>
      <div className="dialog-actions">
        <button type="button" className="button button-quiet" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button"
          disabled={chosen.length === 0}
          onClick={() => {
            const text = store.getState().project.files['policies.yaml'];
            setFileText('policies.yaml', addPoliciesToYaml(text, chosen), {
              origin: 'command',
              label: 'Add extracted policies',
            });
            onAdded();
          }}
        >
          Add {chosen.length} polic{chosen.length === 1 ? 'y' : 'ies'} to policies.yaml
        </button>
      </div>
    </>
  );
}
