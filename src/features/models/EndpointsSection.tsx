import { useState } from 'react';
import type { EndpointConfig } from '../../core/index.ts';
import { ENDPOINT_PRESETS, checkBaseUrl } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { ConnectionResult } from './ConnectionResult.tsx';
import { TryChat } from './TryChat.tsx';

/** Remote endpoints: add from a preset, edit, give a key, test with a real tool call, remove. */
export function EndpointsSection() {
  const endpoints = useAppStore((s) => s.modelSettings.endpoints);
  const rememberKeys = useAppStore((s) => s.modelSettings.rememberKeys);
  const setRememberKeys = useAppStore((s) => s.setRememberKeys);
  const addEndpoint = useAppStore((s) => s.addEndpoint);
  // The card just added takes the focus (and so scrolls into view) on its base URL.
  const [added, setAdded] = useState<string | null>(null);

  return (
    <>
      <p className="models-intro">
        Your own endpoints: OpenAI-compatible servers (OpenAI, Azure OpenAI, OpenRouter, Ollama,
        vLLM, LM Studio, llama.cpp) and Anthropic. The browser calls them directly.
      </p>
      <div className="models-presets" aria-label="Add an endpoint">
        {ENDPOINT_PRESETS.map(({ note: _note, ...preset }) => (
          <button
            key={preset.label}
            type="button"
            className="button button-quiet"
            onClick={() => {
              setAdded(addEndpoint(preset));
            }}
          >
            + {preset.label}
          </button>
        ))}
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            setAdded(
              addEndpoint({
                kind: 'openai',
                label: 'Custom',
                baseUrl: 'http://localhost:8000/v1',
                defaultModel: '',
              }),
            );
          }}
        >
          + Other
        </button>
      </div>
      {endpoints.length === 0 && <p className="models-faint">No endpoints yet.</p>}
      <ul className="endpoint-list">
        {endpoints.map((endpoint) => (
          <EndpointCard key={endpoint.id} endpoint={endpoint} autoFocus={endpoint.id === added} />
        ))}
      </ul>
      <label className="models-check">
        <input
          type="checkbox"
          checked={rememberKeys}
          onChange={(event) => {
            setRememberKeys(event.target.checked);
          }}
        />
        Remember API keys on this device
        <span className="models-faint">
          {rememberKeys
            ? ' Keys are stored in this browser’s local storage, readable by anyone using it.'
            : ' Keys are kept in memory and forgotten when the tab closes.'}{' '}
          Keys never go into share links, exports or error reports.
        </span>
      </label>
    </>
  );
}

function EndpointCard({ endpoint, autoFocus }: { endpoint: EndpointConfig; autoFocus: boolean }) {
  const update = useAppStore((s) => s.updateEndpoint);
  const remove = useAppStore((s) => s.removeEndpoint);
  const apiKey = useAppStore((s) => s.apiKeys[endpoint.id] ?? '');
  const setApiKey = useAppStore((s) => s.setApiKey);
  const test = useAppStore((s) => s.connectionTests[endpoint.id]);
  const testEngine = useAppStore((s) => s.testEngine);
  const [url, setUrl] = useState(endpoint.baseUrl);
  const urlProblem = checkBaseUrl(url);
  const preset = ENDPOINT_PRESETS.find((p) => p.baseUrl === endpoint.baseUrl);
  const id = `endpoint-${endpoint.id}`;

  return (
    <li className="endpoint-card" aria-label={endpoint.label}>
      <div className="endpoint-grid">
        <label htmlFor={`${id}-label`}>Name</label>
        <input
          id={`${id}-label`}
          value={endpoint.label}
          onChange={(event) => {
            update(endpoint.id, { label: event.target.value });
          }}
        />
        <label htmlFor={`${id}-kind`}>Protocol</label>
        <select
          id={`${id}-kind`}
          value={endpoint.kind}
          onChange={(event) => {
            update(endpoint.id, {
              kind: event.target.value === 'anthropic' ? 'anthropic' : 'openai',
            });
          }}
        >
          <option value="openai">OpenAI-compatible</option>
          <option value="anthropic">Anthropic</option>
        </select>
        <label htmlFor={`${id}-url`}>Base URL</label>
        <div className="endpoint-wide">
          <input
            id={`${id}-url`}
            autoFocus={autoFocus}
            value={url}
            spellCheck={false}
            aria-invalid={urlProblem !== undefined}
            onChange={(event) => {
              setUrl(event.target.value);
              if (checkBaseUrl(event.target.value) === undefined) {
                update(endpoint.id, { baseUrl: event.target.value.trim() });
              }
            }}
          />
          {urlProblem && <div className="models-error">{urlProblem}</div>}
          {preset && <div className="models-faint">{preset.note}</div>}
        </div>
        <label htmlFor={`${id}-model`}>Model</label>
        <input
          id={`${id}-model`}
          value={endpoint.defaultModel}
          spellCheck={false}
          onChange={(event) => {
            update(endpoint.id, { defaultModel: event.target.value });
          }}
        />
        <label htmlFor={`${id}-key`}>API key</label>
        <input
          id={`${id}-key`}
          type="password"
          autoComplete="off"
          value={apiKey}
          placeholder="none"
          onChange={(event) => {
            setApiKey(endpoint.id, event.target.value);
          }}
        />
      </div>
      <label className="models-check">
        <input
          type="checkbox"
          checked={endpoint.hostsAgent === true}
          onChange={(event) => {
            update(endpoint.id, { hostsAgent: event.target.checked });
          }}
        />
        This endpoint is my own agent, with its own prompt and tools
        <span className="models-faint">
          {' '}
          As the agent under test it then gets only the conversation, not agent.md or the tools; its
          tool calls stay on its side, so guard rules and database checks cannot see them.
        </span>
      </label>
      <div className="models-actions">
        <button
          type="button"
          className="button"
          disabled={
            test?.status === 'running' ||
            urlProblem !== undefined ||
            endpoint.defaultModel.trim() === ''
          }
          onClick={() => void testEngine(endpoint.id, endpoint.defaultModel.trim())}
        >
          Test connection
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            remove(endpoint.id);
          }}
        >
          Remove
        </button>
      </div>
      <ConnectionResult state={test} />
      {test?.status === 'passed' && (
        <TryChat engine={endpoint.id} model={endpoint.defaultModel.trim()} />
      )}
    </li>
  );
}
