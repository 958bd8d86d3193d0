import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { PHONE_FILES, phoneProject, phoneWith } from '../testing/phoneProject.ts';
import { offered, phoneAgent, simulatePhone } from '../../test/phoneDesk.ts';
import { modelReply, waitingRuntime } from '../../test/scriptedModels.ts';
import type { ChatEngine } from '../models/chat.ts';
import { runSimulation } from './run.ts';
import { handWrittenScenarios } from './scenarios.ts';
import type { SimEvent } from './events.ts';
import { readLog } from './logFormat.ts';
import { reportOf } from './report.ts';
import { transcriptOf } from './transcript.ts';
import { renderTranscript } from './judge.ts';
import { USER_TOOLS_NOTE } from './prompts.ts';
import { dialogueMarkdown } from './dialogueExport.ts';
import { seedDatabase } from './database.ts';
import { dialoguePrefix, forkState } from './fork.ts';

const USER_TOOLS = ['check_status_bar', 'toggle_data', 'toggle_airplane_mode', 'run_speed_test'];

const findingsOf = (events: readonly SimEvent[]) =>
  events.flatMap((e) => (e.type === 'checks' ? e.findings : []));

describe('dual control in a dialogue', () => {
  it('sets the phone up, starts from the history, and lets the user toggle data when told', async () => {
    const events = await simulatePhone(true);
    expect(readLog(events)).toMatchObject({ ok: true });
    const calls = events.flatMap((e) =>
      e.type === 'tool-call' ? [[e.tool, e.by ?? 'agent']] : [],
    );
    expect(calls).toEqual([
      ['toggle_data', 'setup'],
      ['get_line', 'agent'],
      ['toggle_data', 'user'],
    ]);
    const transcript = transcriptOf(events, 'no-data#1');
    expect(transcript.messages.map((m) => `${m.speaker}: ${m.text}`)).toEqual([
      'user: My internet stopped working.',
      'agent: Sorry to hear that. What is your number?',
      'user: My number is 555-0100.',
      'agent: ',
      'agent: Your line is fine. Please toggle mobile data on.',
      'user: Data is on now.',
    ]);
    // The user's call comes with its next message, on the user's side of the dialogue.
    expect(transcript.messages[5]?.calls.map((c) => c.tool)).toEqual(['toggle_data']);
    expect(transcript.changes.map((c) => c.after)).toEqual([
      { id: 'phone', data_on: false, airplane: false },
      { id: 'phone', data_on: true, airplane: false },
    ]);
    // The user's own calls pass no guard.
    const guarded = events.flatMap((e) => (e.type === 'guard' ? [e.call] : []));
    expect(guarded).toHaveLength(1);
    expect(offered.agent.every((tools) => tools.join() === 'get_line')).toBe(true);
    expect(offered.user.every((tools) => tools.join() === USER_TOOLS.join())).toBe(true);
    // The simulated user is told it has tools of its own, and to use them, not to make up results.
    expect(offered.userBriefs.every((brief) => brief.endsWith(USER_TOOLS_NOTE))).toBe(true);
    const findings = findingsOf(events);
    expect(findings.map((f) => [f.id, f.passed])).toEqual([
      ['expected.required_actions[0]', true],
      ['expected.user_assertions[0]', true],
    ]);
    expect(findings[1]?.detail).toMatch(/^The user’s state: Holds at the end/);
    const report = reportOf(events, new Map());
    expect([report.overall.passes, report.overall.fails]).toEqual([1, 0]);
  });

  it('fails the user’s action and state when the user never toggles data', async () => {
    const events = await simulatePhone(false);
    const findings = findingsOf(events);
    expect(findings.map((f) => [f.id, f.passed, f.policy])).toEqual([
      ['expected.required_actions[0]', false, 'user-acts'],
      ['expected.user_assertions[0]', false, 'user-acts'],
    ]);
    expect(findings[0]?.detail).toBe('The user never called toggle_data({"on":true}).');
    expect(findings[1]?.detail).toContain('The user’s state: Does not hold at the end');
    const report = reportOf(events, new Map());
    expect([report.overall.passes, report.overall.fails]).toEqual([0, 1]);
  });

  it('holds the agent’s checks to the agent’s calls only, never the user’s', async () => {
    const rules = `checks:
  - { id: hands-off, policy: user-acts, kind: never_call, tool: toggle_data }
  - { id: one-look-up, policy: look-up-line, kind: max_calls, tool: get_line, max: 1 }
`;
    const events = await simulatePhone(true, phoneProject({ 'rules.yaml': rules }));
    expect(findingsOf(events).map((f) => [f.id, f.passed])).toEqual([
      ['hands-off', true],
      ['one-look-up', true],
      ['expected.required_actions[0]', true],
      ['expected.user_assertions[0]', true],
    ]);
  });

  it('continues a dialogue with the setup and the user’s calls in its database, not in the agent’s view', async () => {
    const events = await simulatePhone(true);
    // After the user toggled data (message 5), from a later agent turn that never came: turn 6.
    const point = dialoguePrefix(events, 'no-data#1', 4);
    if (!point.ok) throw new Error(point.problem);
    const { model } = parseProject(phoneProject());
    const state = forkState(model, seedDatabase(model).db, point.prefix);
    expect(state.db.phone).toEqual([{ id: 'phone', data_on: false, airplane: false }]);
    expect(state.history.map((c) => c.tool)).toEqual(['get_line']);
    expect(state.agentView.filter((m) => m.role === 'tool')).toHaveLength(1);
  });

  it('shows the judge the setup and the user’s calls as theirs', async () => {
    const text = renderTranscript(transcriptOf(await simulatePhone(true), 'no-data#1'));
    expect(text).toContain('    before the conversation, set up: toggle_data({"on":false})');
    expect(text).toContain(
      '[5] user: Data is on now.\n    the user calls toggle_data({"on":true})',
    );
    expect(text).toContain('    calls get_line({"number":"555-0100"})');
  });

  it('exports the setup and the user’s calls once each, as theirs, without a guard', async () => {
    const markdown = dialogueMarkdown(await simulatePhone(true), 'no-data#1');
    expect(markdown.match(/\*\*Tool call \(setup\):\*\* toggle\\?_data/g)).toHaveLength(1);
    expect(
      markdown.match(/\*\*Tool call \(the customer’s own tool\):\*\* toggle\\?_data/g),
    ).toHaveLength(1);
    expect(markdown.split('**Guard:**')).toHaveLength(2);
    expect(markdown.indexOf('### Set up before the conversation')).toBeLessThan(
      markdown.indexOf('My internet stopped working.'),
    );
    expect(markdown).not.toContain('its words never came');
  });

  it('refuses a log whose call names a maker other than the user or the setup', async () => {
    const events = await simulatePhone(true);
    const broken = events.map((e) =>
      e.type === 'tool-call' && e.by === 'user' ? { ...e, by: 'robot' } : e,
    );
    const read = readLog(broken);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.error).toContain('"by" must be one of "user", "setup"');
  });

  it('ends as the simulated user’s error when it only ever calls its tools', async () => {
    const busy: ChatEngine = {
      chat: () => Promise.resolve(modelReply('', [{ name: 'check_status_bar', args: {} }])),
    };
    const { model } = parseProject(phoneProject());
    const events: SimEvent[] = [];
    let tick = 0;
    await runSimulation(
      model,
      {
        seed: 1,
        projectHash: 'phone',
        scenarios: handWrittenScenarios(model).map((scenario) => ({
          scenario,
          source: 'hand-written' as const,
        })),
        trials: 1,
        concurrency: 1,
        agent: { engine: phoneAgent, model: 'agent-model' },
        user: { engine: busy, model: 'user-model' },
        prices: {},
        now: '2026-11-21T12:00:00Z',
        limits: { maxTurns: 4, timeLimitMs: 60_000, maxToolRounds: 3 },
      },
      { runtime: waitingRuntime().runtime, clock: () => tick++, emit: (e) => events.push(e) },
    );
    expect(events.find((e) => e.type === 'dialogue-ended')).toMatchObject({
      reason: 'user-error',
      role: 'user',
      detail: 'The simulated user called its tools 3 times in a row without speaking.',
    });
    const userCalls = events.filter((e) => e.type === 'tool-call' && e.by === 'user');
    expect(userCalls).toHaveLength(3);
  });

  it('answers first as the agent when the history ends with the user', async () => {
    const project = phoneWith(
      'scenarios.yaml',
      '      - { role: assistant, content: Sorry to hear that. What is your number? }\n',
      '      - { role: user, content: My number is 555-0100. }\n',
    );
    const events = await simulatePhone(true, project);
    const speakers = transcriptOf(events, 'no-data#1').messages.map((m) => m.speaker);
    expect(speakers.slice(0, 4)).toEqual(['user', 'user', 'agent', 'agent']);
  });

  it('ends as a scenario error when an initialization call fails', async () => {
    const project = phoneWith(
      'scenarios.yaml',
      '{ tool: toggle_data, args: { on: false } }',
      '{ tool: toggle_data, args: { on: false } }\n      - { tool: get_line, args: {} }',
    );
    expect(parseProject(project).diagnostics.map((d) => d.code)).toEqual(['initialization-args']);
    const events = await simulatePhone(true, project);
    const ended = events.find((e) => e.type === 'dialogue-ended');
    expect(ended).toMatchObject({ reason: 'scenario-error' });
    expect(ended?.type === 'dialogue-ended' && ended.detail).toContain(
      'initialization[1] (get_line) failed',
    );
  });

  it('runs a setup-only tool in setup and the environment step after every call, offering neither', async () => {
    // tau2-bench's shape: a break function only the task's setup calls (suspend the line), and
    // the environment's sync after each call (the phone sees whether its line is active).
    const project = phoneProject({
      'tools.yaml': `${PHONE_FILES['tools.yaml']}  - name: suspend_line
    runs: setup
    description: Suspend a line (setup only).
    kind: write
    parameters: { type: object, properties: { number: { type: string } }, required: [number] }
    effects:
      - { update: lines, where: row.number == args.number, set: { suspended: 'true' } }
  - name: sync_line
    runs: after_each_call
    description: The phone sees whether its line is active.
    kind: write
    parameters: { type: object }
    effects:
      - update: phone
        where: row.id == "phone"
        set: { line_active: '!db.lines.exists(l, l.suspended)' }
`,
      'database.yaml': PHONE_FILES['database.yaml']
        .replace(
          '      airplane: { type: boolean }\n    rows:',
          '      airplane: { type: boolean }\n      line_active: { type: boolean }\n    rows:',
        )
        .replace(
          '{ id: phone, data_on: true, airplane: false }',
          '{ id: phone, data_on: true, airplane: false, line_active: true }',
        ),
      'scenarios.yaml': PHONE_FILES['scenarios.yaml'].replace(
        '      - { tool: toggle_data, args: { on: false } }',
        '      - { tool: toggle_data, args: { on: false } }\n      - { tool: suspend_line, args: { number: "555-0100" } }',
      ),
    });
    const { model, diagnostics } = parseProject(project);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const events = await simulatePhone(true, project);
    // Neither model is offered either tool.
    expect(offered.agent.every((tools) => tools.join() === 'get_line')).toBe(true);
    expect(offered.user.every((tools) => tools.join() === USER_TOOLS.join())).toBe(true);
    // The setup call ran, and each call after it was followed by the sync.
    const transcript = transcriptOf(events, 'no-data#1');
    expect(
      transcript.changes.map((c) => [c.table, c.after?.line_active ?? c.after?.suspended]),
    ).toEqual([
      ['phone', true],
      ['lines', true],
      ['phone', false],
      ['phone', false],
    ]);
    const end = seedDatabase(model).db;
    expect(end.phone?.[0]?.line_active).toBe(true);
    // A required action naming a setup tool can never be made: check says so.
    const wrong = phoneWith(
      'scenarios.yaml',
      '        - { tool: toggle_data, args: { on: true }, requestor: user }',
      '        - { tool: suspend_line, args: { number: "555-0100" } }',
    );
    const withSetup = {
      ...wrong,
      files: {
        ...wrong.files,
        'tools.yaml': project.files['tools.yaml'],
        'database.yaml': project.files['database.yaml'],
      },
    };
    expect(parseProject(withSetup).diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringMatching(/"suspend_line" runs in setup only; no model is offered it/),
    );
  });
});
