import { useState } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';
import { TabList, tabPanelProps } from '../../ui/TabList.tsx';
import { CompareView } from './compare/CompareView.tsx';
import { PlayView } from './PlayView.tsx';
import { SimulateView } from './SimulateView.tsx';

const TABS = [
  { id: 'runs', label: 'Runs' },
  { id: 'play', label: 'Play' },
  { id: 'compare', label: 'Compare' },
] as const;

type Tab = (typeof TABS)[number]['id'];

/** Runs of many simulated dialogues, one dialogue played by hand, or two runs compared. */
export function SimulateTabs() {
  const playing = useAppStore((s) => s.play !== null);
  const [tab, setTab] = useState<Tab>(playing ? 'play' : 'runs');
  return (
    <div className="simulate-tabs-frame">
      <TabList
        label="Simulate"
        idPrefix="simulate"
        tabs={TABS}
        selected={tab}
        onSelect={setTab}
        className="simulate-tabs"
      />
      <div {...tabPanelProps('simulate', tab)}>
        {tab === 'runs' ? <SimulateView /> : tab === 'play' ? <PlayView /> : <CompareView />}
      </div>
    </div>
  );
}
