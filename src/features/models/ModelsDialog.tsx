import { useState } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { TabList, tabPanelProps } from '../../ui/TabList.tsx';
import { EndpointsSection } from './EndpointsSection.tsx';
import { LocalSection } from './LocalSection.tsx';
import { PricesSection } from './PricesSection.tsx';
import { RolesSection } from './RolesSection.tsx';
import { SpendingSection } from './SpendingSection.tsx';
import './models.css';

const TABS = [
  { id: 'roles', label: 'Roles' },
  { id: 'local', label: 'In this browser' },
  { id: 'endpoints', label: 'Endpoints' },
  { id: 'prices', label: 'Prices' },
  { id: 'spending', label: 'Assist spending' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/**
 * Model settings: which model plays each role, local models, remote endpoints, prices, and what
 * the project's Assist actions have spent.
 */
export function ModelsDialog() {
  const open = useAppStore((s) => s.modelsOpen);
  const setOpen = useAppStore((s) => s.setModelsOpen);
  const notes = useAppStore((s) => s.modelSettingsNotes);
  const [tab, setTab] = useState<Tab>('roles');

  return (
    <Dialog
      open={open}
      title="Models"
      onClose={() => {
        setOpen(false);
      }}
      wide
    >
      {notes.map((note) => (
        <p key={note} className="models-note" role="status">
          {note}
        </p>
      ))}
      <TabList
        label="Model settings"
        idPrefix="models"
        tabs={TABS}
        selected={tab}
        onSelect={setTab}
        className="models-tabs"
      />
      <div className="models-panel" {...tabPanelProps('models', tab)}>
        {open && tab === 'roles' && (
          <RolesSection
            onGoTo={(next) => {
              setTab(next);
            }}
          />
        )}
        {open && tab === 'local' && <LocalSection />}
        {open && tab === 'endpoints' && <EndpointsSection />}
        {open && tab === 'prices' && <PricesSection />}
        {open && tab === 'spending' && <SpendingSection />}
      </div>
    </Dialog>
  );
}
