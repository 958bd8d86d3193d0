import { useState } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';
import { PlayView } from './PlayView.tsx';
import { SimulateView } from './SimulateView.tsx';

const TABS = [
  { id: 'runs', label: 'Runs' },
  { id: 'play', label: 'Play' },
] as const;

type Tab = (typeof TABS)[number]['id'];

/** Runs of many simulated dialogues, or one dialogue played by hand. */
export function SimulateTabs() {
  const playing = useAppStore((s) => s.play !== null);
  const [tab, setTab] = useState<Tab>(playing ? 'play' : 'runs');
  return (
    <div className="simulate-tabs-frame">
      <div className="simulate-tabs" role="tablist" aria-label="Simulate">
        {TABS.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`simulate-tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`simulate-panel-${id}`}
            className="simulate-tab"
            onClick={() => {
              setTab(id);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`simulate-panel-${tab}`} aria-labelledby={`simulate-tab-${tab}`}>
        {tab === 'runs' ? <SimulateView /> : <PlayView />}
      </div>
    </div>
  );
}
