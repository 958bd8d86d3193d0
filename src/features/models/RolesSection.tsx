import type { ModelRole } from '../../core/index.ts';
import { LOCAL_ENGINE, MODEL_ROLES } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';

const NO_MODEL = 'none';

const ROLE_INFO: Record<ModelRole, { title: string; job: string }> = {
  generator: { title: 'Generator', job: 'Writes scenarios and extracts policies.' },
  user: { title: 'Simulated user', job: 'Plays the customer in each dialogue.' },
  agent: { title: 'Agent under test', job: 'Answers with agent.md as its prompt and the tools.' },
  judge: { title: 'Judge', job: 'Says, per policy, whether the agent broke it.' },
};

/** One row per role: which engine and which model plays it. */
export function RolesSection({ onGoTo }: { onGoTo: (tab: 'local' | 'endpoints') => void }) {
  const endpoints = useAppStore((s) => s.modelSettings.endpoints);
  const roles = useAppStore((s) => s.modelSettings.roles);
  const loaded = useAppStore((s) => s.localModel.loaded);
  const lastUsed = useAppStore((s) => s.localModel.lastUsed);
  const busy = useAppStore((s) => s.localModel.busy !== undefined);
  const load = useAppStore((s) => s.loadLocalModel);
  const setRoleModel = useAppStore((s) => s.setRoleModel);

  return (
    <>
      <p className="models-intro">
        Each role may use a different model. With no endpoint set up, every role runs on the model
        loaded in this browser; nothing leaves your machine.
      </p>
      <table className="models-table">
        <thead>
          <tr>
            <th scope="col">Role</th>
            <th scope="col">Engine</th>
            <th scope="col">Model</th>
          </tr>
        </thead>
        <tbody>
          {MODEL_ROLES.map((role) => {
            const choice = roles[role];
            // The judge is optional: left unset, no model judges (the rules and checks still do).
            const optional = role === 'judge';
            const engine = choice?.engine ?? (optional ? NO_MODEL : LOCAL_ENGINE);
            const endpoint = endpoints.find((e) => e.id === engine);
            return (
              <tr key={role}>
                <th scope="row">
                  <div>{ROLE_INFO[role].title}</div>
                  <div className="models-faint">{ROLE_INFO[role].job}</div>
                </th>
                <td>
                  <select
                    aria-label={`Engine for ${ROLE_INFO[role].title}`}
                    value={engine}
                    onChange={(event) => {
                      const next = event.target.value;
                      const picked = endpoints.find((e) => e.id === next);
                      setRoleModel(
                        role,
                        next === NO_MODEL || (next === LOCAL_ENGINE && !optional)
                          ? undefined
                          : { engine: next, model: picked?.defaultModel ?? 'local' },
                      );
                    }}
                  >
                    {optional && <option value={NO_MODEL}>No judge model</option>}
                    <option value={LOCAL_ENGINE}>In this browser</option>
                    {endpoints.map((e) => (
                      <option key={e.id} value={e.id}>
                        {e.label}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {endpoint ? (
                    <input
                      aria-label={`Model for ${ROLE_INFO[role].title}`}
                      value={choice?.model ?? ''}
                      placeholder={endpoint.defaultModel}
                      spellCheck={false}
                      onChange={(event) => {
                        setRoleModel(role, { engine, model: event.target.value });
                      }}
                    />
                  ) : engine === NO_MODEL ? (
                    <span className="models-faint">only rules and checks judge</span>
                  ) : loaded ? (
                    <span>{loaded.name}</span>
                  ) : (
                    <span className="models-faint">no model loaded</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="models-actions">
        {!loaded && lastUsed && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => {
              void load(lastUsed);
              onGoTo('local');
            }}
          >
            Load {lastUsed.label} again
          </button>
        )}
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            onGoTo('local');
          }}
        >
          Choose a local model
        </button>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            onGoTo('endpoints');
          }}
        >
          Add an endpoint
        </button>
      </div>
    </>
  );
}
