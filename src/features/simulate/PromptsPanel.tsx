import { useState } from 'react';
import type { PromptInfo } from '../../core/index.ts';
import {
  FIXED_MESSAGES,
  placesIn,
  removePromptOverride,
  setPromptOverride,
} from '../../core/index.ts';
import type { PromptView } from '../../state/promptsSelectors.ts';
import { promptsSelectors } from '../../state/promptsSelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';

/**
 * Every prompt the simulation sends, readable in full: what it is for, the places it fills in,
 * and whether the text is PolicyLab's own or the project's (`prompts:` in scenarios.yaml), with
 * a button to copy a built-in one there to edit, or to go back to the built-in one.
 */
export function PromptsPanel() {
  const prompts = useAppStore(promptsSelectors(useAppStoreApi()).selectPrompts);
  const store = useAppStoreApi();
  const [message, setMessage] = useState<string | null>(null);
  const own = prompts.filter((p) => p.template.source === 'project').length;

  /** Applies an edit of scenarios.yaml as one undo step and shows the place in the editor. */
  const edit = (info: PromptInfo, action: 'override' | 'reset') => {
    const { project, setFileText, revealAt } = store.getState();
    const text = project.files['scenarios.yaml'];
    const result =
      action === 'override'
        ? setPromptOverride(text, info.key, info.text)
        : removePromptOverride(text, info.key);
    if (!result.ok) {
      setMessage(`scenarios.yaml was not changed: ${result.message}`);
      return;
    }
    setMessage(null);
    const verb = action === 'override' ? 'Override the' : 'Use the built-in';
    setFileText('scenarios.yaml', result.text, {
      origin: 'command',
      label: `${verb} ${info.title.toLowerCase()} prompt`,
    });
    if (result.line > 0) revealAt('scenarios.yaml', result.line, 1, false);
  };

  return (
    <details className="prompts-panel" data-testid="prompts-panel">
      <summary>
        Prompts the models are sent
        <span className="simulate-faint">
          {' · '}
          {own === 0 ? 'all built-in' : `${own} from scenarios.yaml`}
        </span>
      </summary>
      <p className="simulate-faint">
        The simulated user, the scenario generator and the judge are told exactly these texts, with
        each <code>{'{{place}}'}</code> filled in. Override one to word it your way: it is copied
        under <code>prompts:</code> in scenarios.yaml, where you can edit it.
      </p>
      {message && (
        <p className="simulate-message" role="alert">
          {message}
        </p>
      )}
      <ul className="prompt-list">
        {prompts.map((view) => (
          <PromptCard
            key={view.info.id}
            view={view}
            onOverride={() => {
              edit(view.info, 'override');
            }}
            onReset={() => {
              edit(view.info, 'reset');
            }}
          />
        ))}
      </ul>
      <section className="fixed-messages" aria-label="Fixed messages">
        <h4>Also sent, in fixed words</h4>
        <dl>
          {FIXED_MESSAGES.map((m) => (
            <div key={m.title}>
              <dt>
                {m.title} <span className="simulate-faint">· {m.when}</span>
              </dt>
              <dd>
                <pre className="prompt-text">{m.text}</pre>
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </details>
  );
}

function PromptCard({
  view,
  onOverride,
  onReset,
}: {
  view: PromptView;
  onOverride: () => void;
  onReset: () => void;
}) {
  const { info, template, written } = view;
  const fromProject = template.source === 'project';
  const used = new Set(placesIn(template.text).map((p) => p.name));
  return (
    <li className="prompt-card" aria-label={info.title}>
      <div className="prompt-head">
        <h4>{info.title}</h4>
        <code className="simulate-faint">
          {info.id} v{info.version}
        </code>
        <span className="prompt-badge" data-source={fromProject ? 'project' : 'built-in'}>
          {fromProject ? 'from scenarios.yaml' : 'built-in'}
        </span>
        {written ? (
          <button type="button" className="button button-quiet" onClick={onReset}>
            Use built-in
          </button>
        ) : (
          <button type="button" className="button button-quiet" onClick={onOverride}>
            Override in scenarios.yaml
          </button>
        )}
      </div>
      <p className="prompt-purpose">{info.purpose}</p>
      {written && !fromProject && (
        <p className="simulate-faint">
          Its entry in scenarios.yaml is empty, so the built-in text is sent.
        </p>
      )}
      <dl className="prompt-places" aria-label="Places it fills in">
        {Object.entries(info.places).map(([name, place]) => (
          <div key={name}>
            <dt>
              <code>{`{{${name}}}`}</code>
            </dt>
            <dd>
              {place.description}
              {!used.has(name) && <em> · not in this text</em>}
            </dd>
          </div>
        ))}
      </dl>
      <pre className="prompt-text" tabIndex={0} aria-label={`${info.title} prompt text`}>
        {template.text}
      </pre>
    </li>
  );
}
