import type { ModelRole, Replay, TerminationReason } from '../../core/index.ts';
import { ENDING_LABELS, MODEL_ROLES, personaOf, readerTurns } from '../../core/index.ts';

const ROLE_NAMES: Readonly<Record<ModelRole, string>> = {
  agent: 'Agent',
  user: 'Simulated user',
  judge: 'Judge',
  generator: 'Generator',
};

/** The scenario the dialogue played, the models per role, the seed, and how it ended. */
export function ScenarioCard({ replay }: { replay: Replay }) {
  const { scenario, ending } = replay;
  const expected = scenario?.expected;
  const expectations = expected
    ? [
        ...expected.database.map((d) => `database: ${d}`),
        ...expected.requiredActions.map((a, i) => {
          const args = expected.actionArgs?.[`expected.required_actions[${String(i)}]`];
          if (!args) return `calls ${a}`;
          const compared = args.compare
            ? ` (comparing ${args.compare.join(', ') || 'nothing'})`
            : '';
          return `calls ${a}(${JSON.stringify(args.args)})${compared}`;
        }),
        ...expected.forbiddenActions.map((a) => `never calls ${a}`),
        ...expected.mustSay.map((p) => `says “${p}”`),
        ...expected.mustNotSay.map((p) => `never says “${p}”`),
        ...(expected.assertions ?? []).map((a) => `the judge is asked: “${a.text}”`),
      ]
    : [];
  const reason = ending?.reason as TerminationReason | undefined;
  return (
    <details className="replay-card" open>
      <summary>
        <span className="replay-card-title">
          {scenario ? `Scenario ${scenario.id}` : 'Scenario not in the log'}
          {replay.trial !== undefined && ` · trial ${replay.trial + 1}`}
        </span>
        <span className="replay-faint">
          {reason ? ENDING_LABELS[reason].sentence : 'Still running, or cut off.'}
        </span>
      </summary>
      {scenario && (
        <dl className="replay-facts">
          <dt>Persona</dt>
          <dd>
            {personaOf(scenario)}
            {scenario.persona.trim() === '' && ' (the default: the scenario gives none)'}
          </dd>
          <dt>Goal</dt>
          <dd>{scenario.goal}</dd>
          <dt>Knows</dt>
          <dd>{scenario.knows.length > 0 ? scenario.knows.join('; ') : 'nothing given'}</dd>
          <dt>Does not know</dt>
          <dd>{scenario.unknown.length > 0 ? scenario.unknown.join('; ') : 'nothing given'}</dd>
          <dt>Policies under test</dt>
          <dd>{scenario.policies.length > 0 ? scenario.policies.join(', ') : 'none named'}</dd>
          <dt>Expected</dt>
          <dd>
            {expectations.length > 0 ? (
              <ul className="replay-expected">
                {expectations.map((e, i) => (
                  <li key={`${String(i)}-${e}`}>{e}</li>
                ))}
              </ul>
            ) : (
              'nothing'
            )}
          </dd>
        </dl>
      )}
      <dl className="replay-facts">
        <dt>Models</dt>
        <dd>
          {MODEL_ROLES.filter((r) => replay.models[r] !== undefined)
            .map((r) => `${ROLE_NAMES[r]}: ${replay.models[r] ?? ''}`)
            .join(' · ')}
        </dd>
        <dt>Seed</dt>
        <dd>
          {replay.seed ?? 'unknown'}
          {replay.now !== undefined && ` · the run’s clock said ${replay.now}`}
        </dd>
        {ending && (
          <>
            <dt>Ended</dt>
            <dd>
              {ending.detail}
              {ending.role && ` (the ${ending.role}’s call)`}
            </dd>
          </>
        )}
        {replay.source?.kind === 'rechecked' && (
          <>
            <dt>Re-checked from</dt>
            <dd>
              run {replay.source.run}: its dialogues judged again against the project’s checks and
              expectations as they stood then, without a model call
            </dd>
          </>
        )}
        {replay.source?.kind === 'continued' && (
          <>
            <dt>Continued from</dt>
            <dd>
              {replay.source.dialogue} of run {replay.source.run}, re-run from{' '}
              {readerTurns(replay.transcript.messages)(replay.source.turn)} with the project as it
              stood then
            </dd>
          </>
        )}
      </dl>
    </details>
  );
}
