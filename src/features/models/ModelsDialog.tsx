import { useState } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { EndpointsSection } from './EndpointsSection.tsx';
import { LocalSection } from './LocalSection.tsx';
import { PricesSection } from './PricesSection.tsx';
import { RolesSection } from './RolesSection.tsx';
import './models.css';

const TABS = [
  { id: 'roles', label: 'Roles' },
  { id: 'local', label: 'In this browser' },
  { id: 'endpoints', label: 'Endpoints' },
  { id: 'prices', label: 'Prices' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** Model settings: which model plays each role, local models, remote endpoints and prices. */
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
      <div className="models-tabs" role="tablist" aria-label="Model settings">
        {TABS.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`models-tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`models-panel-${id}`}
            className="models-tab"
            onClick={() => {
              setTab(id);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <div
        className="models-panel"
        role="tabpanel"
        id={`models-panel-${tab}`}
        aria-labelledby={`models-tab-${tab}`}
      >
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
      </div>
    </Dialog>
  );
}
