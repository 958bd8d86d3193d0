import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../analyze.ts';
import { parseProject } from '../parseProject.ts';
import { miniProject } from '../../testing/miniProject.ts';
import { phoneProject, phoneWith } from '../../testing/phoneProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkDualControl } from './dualControl.ts';
import { checkScenarios } from './scenarios.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));

describe('checkDualControl', () => {
  it('finds nothing in the phone project, the mini project and the examples', () => {
    for (const project of [phoneProject(), miniProject(), ...examples])
      expect(runChecker(checkDualControl, project), project.name).toEqual([]);
    expect(parseProject(phoneProject()).diagnostics).toEqual([]);
  });

  it('does not ask for guards on the user’s tools, which guards cannot hold', () => {
    const codes = analyzeProject(phoneProject()).diagnostics.map((d) => d.code);
    expect(codes).not.toContain('unguarded-write');
    expect(codes).toEqual(['untestable-policy']);
  });

  it('counts a user assertion as a deterministic check of the scenario’s policy', () => {
    const project = phoneWith(
      'scenarios.yaml',
      '      required_actions:\n        - { tool: toggle_data, args: { on: true }, requestor: user }\n',
      '',
    );
    const judgeOnly = analyzeProject(project)
      .diagnostics.filter((d) => d.code === 'judge-only-policy')
      .map((d) => d.message);
    // "user-acts" is examined by the user assertion alone; "look-up-line" by nothing at all.
    expect(judgeOnly).toEqual([]);
  });

  it('reads the sides, the initialization, the history and the user assertions into the model', () => {
    const { model } = parseProject(phoneProject());
    expect(model.tools.map((t) => t.side ?? 'agent')).toEqual([
      'agent',
      'user',
      'user',
      'user',
      'user',
    ]);
    expect(model.tables.map((t) => t.side ?? 'agent')).toEqual(['agent', 'user']);
    const [scenario] = model.scenarios;
    expect(scenario?.initialization).toEqual([{ tool: 'toggle_data', args: { on: false } }]);
    expect(scenario?.messageHistory?.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(scenario?.expected.userAssertions).toEqual([
      'db.phone.exists(p, p.data_on && !p.airplane)',
    ]);
    expect(scenario?.expected.requestors).toEqual({ 'expected.required_actions[0]': 'user' });
  });

  it("refuses an agent tool that reads or writes the user's table", () => {
    const reads = phoneWith(
      'tools.yaml',
      'returns: db.lines.filter(l, l.number == args.number)',
      'returns: db.phone',
    );
    expect(runChecker(checkDualControl, reads)).toEqual([
      'tools.yaml:10:14 "db.phone" error wrong-side: "get_line" (the agent’s tool) reads "phone", the user’s table; the agent’s side never sees it.',
    ]);
    const writes = phoneWith(
      'tools.yaml',
      'kind: read\n    parameters:\n      type: object\n      properties:\n        number',
      'kind: write\n    effects:\n      - { update: phone, where: \'row.id == "phone"\', set: { airplane: "true" } }\n    parameters:\n      type: object\n      properties:\n        number',
    );
    expect(runChecker(checkDualControl, writes)).toEqual([
      'tools.yaml:6:19 "phone" error wrong-side: "get_line" (the agent’s tool) cannot write "phone", the user’s table.',
    ]);
  });

  it("refuses a user tool that reads the agent's table", () => {
    const project = phoneWith('tools.yaml', 'returns: db.phone\n', 'returns: db.lines\n');
    expect(runChecker(checkDualControl, project)).toEqual([
      'tools.yaml:16:14 "db.lines" error wrong-side: "check_status_bar" (the user’s tool) reads "lines", the agent’s table; the user’s side never sees it.',
    ]);
  });

  it('refuses guards on a user tool or over the user’s table, and warns of checks on one', () => {
    const project = phoneProject({
      'rules.yaml': `guards:
  toggle_data:
    rules:
      - { id: no-toggle, policy: user-acts, decision: forbid }
  get_line:
    rules:
      - { id: offline, policy: look-up-line, decision: forbid, when: 'db.phone.exists(p, p.airplane)' }
checks:
  - { id: never-toggle, policy: user-acts, kind: never_call, tool: toggle_data }
`,
    });
    expect(runChecker(checkDualControl, project)).toEqual([
      'rules.yaml:2:3 "toggle_data" error wrong-side: "toggle_data" is the user’s tool: guard rules hold the agent, which is never offered it.',
      'rules.yaml:7:70 "\'db.phone.exists(p, p.airplane)\'" error wrong-side: Rule "offline" reads "phone", the user’s table; the agent’s side never sees it.',
      'rules.yaml:9:68 "toggle_data" warning wrong-side: "toggle_data" is the user’s tool: checks watch the agent’s calls, so this one sees none of it.',
    ]);
  });

  it('checks initialization calls: the tool exists and the arguments fit it', () => {
    const unknown = phoneWith(
      'scenarios.yaml',
      '{ tool: toggle_data, args: { on: false } }',
      '{ tool: toggle_dat }',
    );
    expect(runChecker(checkDualControl, unknown)).toEqual([
      'scenarios.yaml:6:17 "toggle_dat" error unknown-tool: Unknown tool "toggle_dat". Did you mean "toggle_data"?',
    ]);
    const badArgs = phoneWith('scenarios.yaml', 'args: { on: false }', 'args: { on: "no" }');
    expect(runChecker(checkDualControl, badArgs)).toEqual([
      'scenarios.yaml:6:9 "{ tool: toggle_data, args: { on: \\"no\\" } }" error initialization-args: The arguments of "toggle_data" do not fit its parameters: "on" must be boolean.',
    ]);
  });

  it('holds a required action to its side', () => {
    const agentMakes = phoneWith('scenarios.yaml', ', requestor: user }', ' }');
    expect(runChecker(checkDualControl, agentMakes)).toEqual([
      'scenarios.yaml:12:19 "toggle_data" error wrong-side: "toggle_data" is the user’s tool, which the agent is never offered; write { tool: toggle_data, requestor: user }.',
    ]);
    const userMakes = phoneWith(
      'scenarios.yaml',
      '{ tool: toggle_data, args: { on: true }, requestor: user }',
      '{ tool: get_line, requestor: user }',
    );
    expect(runChecker(checkDualControl, userMakes)).toEqual([
      'scenarios.yaml:12:19 "get_line" error wrong-side: "get_line" is the agent’s tool; the user cannot make this call. Leave out "requestor: user", or name one of the user’s tools.',
    ]);
  });

  it('checks user assertions: valid CEL, over the user’s tables only', () => {
    const agentTable = phoneWith(
      'scenarios.yaml',
      '- db.phone.exists(p, p.data_on && !p.airplane)',
      "- { assert: 'db.lines.all(l, l.suspended == false)', policy: user-acts }",
    );
    expect(runChecker(checkDualControl, agentTable)).toEqual([
      'scenarios.yaml:14:21 "\'db.lines.all(l, l.suspended == false)\'" error user-assertion-table: "lines" is the agent’s table; a user assertion reads only the user’s (side: user). Put it under expected.database instead.',
    ]);
    const broken = phoneWith('scenarios.yaml', 'p.data_on && !p.airplane)', 'p.data_on &&)');
    expect(runChecker(checkDualControl, broken)).toHaveLength(1);
    expect(runChecker(checkDualControl, broken)[0]).toContain('error cel: CEL:');
    const none = phoneWith(
      'scenarios.yaml',
      '- db.phone.exists(p, p.data_on && !p.airplane)',
      '- "true"',
    );
    expect(runChecker(checkDualControl, none)).toEqual([
      'scenarios.yaml:14:11 "\\"true\\"" error user-assertion-table: A user assertion reads the user’s tables (db.<table>); this one reads none.',
    ]);
  });

  it('holds a user assertion’s policy to policies.yaml and the scenario, as other expectations', () => {
    const project = phoneWith(
      'scenarios.yaml',
      '- db.phone.exists(p, p.data_on && !p.airplane)',
      "- { assert: 'db.phone.exists(p, p.data_on)', policy: user-act }",
    );
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:14:62 "user-act" error unknown-policy: Unknown policy "user-act". Did you mean "user-acts"?',
    ]);
  });

  it('warns of a forbidden action naming a user tool', () => {
    const project = phoneWith(
      'scenarios.yaml',
      '      user_assertions:',
      '      forbidden_actions: [toggle_airplane_mode]\n      user_assertions:',
    );
    expect(runChecker(checkDualControl, project)).toEqual([
      'scenarios.yaml:13:27 "toggle_airplane_mode" warning wrong-side: "toggle_airplane_mode" is the user’s tool, which the agent is never offered: forbidding it checks nothing.',
    ]);
  });

  it('rejects a side that is neither agent nor user, and a history role that is neither', () => {
    const side = parseProject(phoneWith('database.yaml', 'side: user', 'side: customer'));
    expect(side.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`)).toContain(
      'database.yaml:11 "side" must be one of: agent, user.',
    );
    const role = parseProject(phoneWith('scenarios.yaml', 'role: assistant', 'role: agent'));
    expect(role.diagnostics.map((d) => `${d.file}:${d.line}`)).toContain('scenarios.yaml:9');
  });
});
