import { toolSpecsOf } from '../sim/userSide.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { projectFromFiles } from '../bundle.ts';
import { compileCel, isCelProblem } from '../cel.ts';
import { parseProject } from '../format/parseProject.ts';
import { seedDatabase } from '../sim/database.ts';
import { checkExpectations } from '../sim/expectations.ts';
import type { Database } from '../sim/events.ts';
import { runInitialization } from '../sim/initialization.ts';
import { runTool } from '../sim/toolRuntime.ts';
import { readTau2Domain } from './tau2.ts';
import { domainSummary } from './importDomain.ts';
import { projectOfDomain } from './toProject/index.ts';
import { celOf } from './toProject/userSide.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const read = (...parts: string[]) =>
  readFileSync(path.join(here, 'testdata', 'tau2-phone', ...parts), 'utf8');

/** The phone domain: a carrier's agent and the customer's own phone (dual control). */
function phoneDomain(): Map<string, string> {
  return new Map([
    ...['policy.md', 'tasks.json', 'db.json', 'user_db.json'].map(
      (f) => [f, read('data', f)] as [string, string],
    ),
    ...['tools.py', 'user_tools.py', 'environment.py'].map(
      (f) => [f, read('src', f)] as [string, string],
    ),
  ]);
}

const domain = readTau2Domain('phone', phoneDomain());
const imported = projectOfDomain(domain);

describe('importing tau2 dual control', () => {
  it('reads the user’s state, tools, other functions and the tasks’ dual-control parts', () => {
    expect(domain.userTables?.map((t) => [t.name, t.key, t.rows])).toEqual([
      ['device', 'id', [{ id: 'device', data_on: true, airplane: false, signal: 'good' }]],
    ]);
    expect(domain.userTools?.map((t) => t.name)).toEqual([
      'check_status_bar',
      'toggle_data',
      'set_airplane_mode',
      'reboot',
    ]);
    expect(domain.userFunctions?.find((f) => f.name === 'set_signal')).toMatchObject({
      params: [{ name: 'level', default: '"none"' }],
      statements: ['self.db.device.signal = level'],
    });
    const [task] = domain.tasks;
    expect(task?.initialization).toEqual([
      { env: 'user', func: 'turn_data_off', arguments: {} },
      { env: 'user', func: 'set_airplane_mode', arguments: { on: true } },
    ]);
    expect(task?.messageHistory?.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'assistant',
      'tool',
      'user',
      'tool',
    ]);
    expect(task?.messageHistory?.[2]?.calls).toEqual([
      { name: 'get_line', arguments: { number: '555-0100' } },
    ]);
    expect(task?.envAssertions?.map((a) => [a.func, a.assertValue])).toEqual([
      ['assert_mobile_data_status', true],
      ['assert_airplane_mode', false],
      ['assert_internet_speed', true],
      ['assert_line_active', true],
    ]);
    expect(task?.actions.map((a) => a.requestor ?? 'assistant')).toEqual([
      'assistant',
      'user',
      'user',
    ]);
    expect(domainSummary(domain)).toBe(
      "1 tools, 1 tables (lines 2 rows), 2 tasks. The user's side: 4 tools, 1 tables.",
    );
    // initialization_data is read per side, as tau2-bench merges it into each database.
    expect(domain.tasks[1]?.initialData).toEqual({
      agent: { lines: { '555-0199': { plan: 'unlimited' } }, note: 'not a table' },
      user: { device: { airplane: true } },
    });
    expect(domain.tasks[1]?.extras).toEqual([]);
  });

  it('writes the user’s side: side: user tables and tools, simple writes as effects', () => {
    const { model } = parseProject(projectFromFiles('phone', imported.files).project);
    expect(model.tables.map((t) => [t.name, t.side ?? 'agent'])).toEqual([
      ['lines', 'agent'],
      ['device', 'user'],
    ]);
    expect(model.tools.map((t) => [t.name, t.side ?? 'agent', t.effects.length])).toEqual([
      ['get_line', 'agent', 0],
      ['check_status_bar', 'user', 0],
      ['toggle_data', 'user', 1],
      ['set_airplane_mode', 'user', 1],
      ['reboot', 'user', 0],
      // The functions the tasks' initialization actions call, as setup tools of the user's side.
      ['turn_data_off', 'user', 1],
      ['set_signal', 'user', 1],
      ['scramble_settings', 'user', 0],
      // environment.py's sync_tools, which tau2-bench runs after every call.
      ['sync_tools', 'agent', 1],
    ]);
    expect(model.tools.slice(5).map((t) => t.runs)).toEqual([
      'setup',
      'setup',
      'setup',
      'after_each_call',
    ]);
    // The setup tool a task needs but cannot be read is not imported, and says why.
    expect(model.tools[7]?.notImported).toMatch(/self\.random_choice\(\)/);
    expect(model.tools[2]?.effects[0]).toMatchObject({
      op: 'update',
      table: 'device',
      where: 'row.id == "device"',
      columns: { data_on: '!(row.data_on)' },
    });
  });

  it('writes each task’s initialization, history, rows, user actions and user assertions', () => {
    const { model } = parseProject(projectFromFiles('phone', imported.files).project);
    const [noData, suspended] = model.scenarios;
    // The initialization actions in order, a setup function's among the tools', then the
    // history's own call, as tau2-bench makes it again.
    expect(noData?.initialization).toEqual([
      { tool: 'turn_data_off', args: {} },
      { tool: 'set_airplane_mode', args: { on: true } },
      { tool: 'get_line', args: { number: '555-0100' } },
    ]);
    expect(noData?.rows.device).toBeUndefined();
    expect(noData?.messageHistory).toEqual([
      { role: 'user', content: 'My internet stopped working.' },
      { role: 'assistant', content: 'Sorry to hear that. What is your number?' },
    ]);
    expect(noData?.expected.requestors).toEqual({
      'expected.required_actions[1]': 'user',
      'expected.required_actions[2]': 'user',
    });
    expect(noData?.expected.userAssertions).toEqual([
      'db.device.exists(r, r.data_on == true)',
      '!db.device.exists(r, r.airplane)',
    ]);
    // initialization_data merged into the rows it names; then the setup calls, a setup
    // function's default argument taken when the call leaves it out.
    expect(suspended?.rows.lines).toEqual([
      { number: '555-0199', plan: 'unlimited', suspended: true },
    ]);
    expect(suspended?.rows.device).toEqual([
      { id: 'device', data_on: true, airplane: true, signal: 'good' },
    ]);
    expect(suspended?.initialization).toEqual([{ tool: 'set_signal', args: {} }]);
    const start = seedDatabase(model, suspended?.rows ?? {}).db;
    const set = runInitialization(
      model,
      start,
      suspended?.initialization ?? [],
      '2024-01-01T00:00:00Z',
    );
    expect(set.db.device?.[0]?.signal).toBe('none');
    expect(suspended?.expected.userAssertions).toEqual([
      'db.device.exists(r, !(r.signal != "none"))',
    ]);
  });

  it('lists, by item, each part it could not carry', () => {
    const dual = imported.notCarried
      .filter((n) => n.item.startsWith('user tool') || n.file === 'scenarios.yaml')
      .map((n) => `${n.item} | ${n.message}`);
    expect(dual).toEqual([
      'user tool reboot | Not imported: what it changes could not be read (it calls range() (line 31)). A dialogue that calls it ends as an error.',
      "task no_data | Message history turn 5 (user): its tool call shake_phone not carried: no tool of that name on the user's side.",
      'task no_data | Message history turn 6 (tool) not carried: a history turn is words of the user or the agent.',
      'task no_data | Environment assertion assert_internet_speed({"expected_desc":"excellent"}) not carried: it calls self.run_speed_test(), whose source is not beside it.',
      'task no_data | Environment assertion assert_line_active({"number":"555-0100"}) not carried: no such function in tools.py.',
      'task suspended | initialization_data (agent) not carried in part: "note" is not a table of the domain\'s database.',
      'task suspended | Initialization action scramble_settings({}) not carried: what it changes could not be read (it calls self.random_choice(), whose source is not beside it).',
    ]);
  });

  it('runs the environment’s sync after every call: a suspended line leaves the phone no signal', () => {
    const { model } = parseProject(projectFromFiles('phone', imported.files).project);
    const now = '2026-01-01T00:00:00Z';
    const signalAfter = (suspended: boolean) => {
      const { db } = seedDatabase(model, {
        lines: [{ number: '555-0100', plan: 'unlimited', suspended }],
      });
      const out = runTool(model, db, { tool: 'toggle_data', args: {} }, { now });
      return out.ok ? out.db.device?.[0]?.signal : out.error;
    };
    expect(signalAfter(true)).toBe('none');
    expect(signalAfter(false)).toBe('good');
    // Neither side is offered it.
    expect(toolSpecsOf(model, 'agent').map((t) => t.name)).toEqual(['get_line']);
    expect(toolSpecsOf(model, 'user').map((t) => t.name)).not.toContain('sync_tools');
  });

  it('gives a project that checks with no errors', () => {
    const errors = analyzeProject(
      projectFromFiles('phone', imported.files).project,
    ).diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([]);
  });

  it('reaches the user’s expected state when the expected actions are replayed, and not without the user’s', () => {
    const { model } = parseProject(projectFromFiles('phone', imported.files).project);
    const scenario = model.scenarios[0];
    if (!scenario) throw new Error('no scenario');
    const now = '2026-01-01T00:00:00Z';
    const holds = (db: Database) =>
      (scenario.expected.userAssertions ?? []).map((source) => {
        const compiled = compileCel(source);
        if (isCelProblem(compiled)) throw new Error(compiled.message);
        return compiled.run({ db });
      });
    const replay = (actions: readonly string[]) => {
      const start = seedDatabase(model, scenario.rows).db;
      let { db } = runInitialization(model, start, scenario.initialization ?? [], now);
      for (const action of domain.tasks[0]?.actions ?? []) {
        if (!actions.includes(action.name)) continue;
        const outcome = runTool(model, db, { tool: action.name, args: action.arguments }, { now });
        expect(outcome.ok).toBe(true);
        db = outcome.db;
      }
      return holds(db);
    };
    expect(replay(['get_line', 'set_airplane_mode', 'toggle_data'])).toEqual([true, true]);
    expect(replay(['get_line'])).toEqual([false, false]);
    expect(replay(['get_line', 'set_airplane_mode'])).toEqual([false, true]);
  });
});

describe('celOf', () => {
  const names = {
    name: (n: string) => (n === 'x' ? 'args.x' : undefined),
    field: (t: string, f: string) => (t === 'device' ? `r.${f}` : undefined),
  };

  it('translates comparisons, and/or/not and literals, and nothing else', () => {
    expect(celOf('self.db.device.data_on == x and not self.db.device.airplane', names)).toBe(
      'r.data_on == args.x && !(r.airplane)',
    );
    expect(celOf('self.db.device.signal in ["good"]', names)).toBeUndefined();
    expect(celOf('self.db.phone.signal == 1', names)).toBeUndefined();
    expect(celOf('len(x) > 2', names)).toBeUndefined();
    expect(celOf('f"{x}" == "a"', names)).toBeUndefined();
  });

  it('never throws, and what it gives compiles as CEL', () => {
    fc.assert(
      fc.property(fc.string(), (noise) => {
        const cel = celOf(noise, names);
        if (cel !== undefined) expect(isCelProblem(compileCel(cel))).toBe(false);
      }),
    );
  });

  it('translates every well-formed comparison of fields, arguments and literals', () => {
    const operand = fc.constantFrom(
      'self.db.device.data_on',
      'self.db.device.signal',
      'x',
      'True',
      'None',
      '"on"',
      '3',
    );
    const clause = fc
      .tuple(fc.boolean(), operand, fc.constantFrom('==', '!=', '<', '>='), operand)
      .map(([not, a, op, b]) => `${not ? 'not ' : ''}${a} ${op} ${b}`);
    const joined = fc
      .tuple(clause, fc.array(fc.tuple(fc.constantFrom('and', 'or'), clause), { maxLength: 3 }))
      .map(([first, rest]) => [first, ...rest.flat()].join(' '));
    fc.assert(
      fc.property(joined, (python) => {
        const cel = celOf(python, names);
        expect(cel).toBeDefined();
        expect(cel).not.toContain('self');
      }),
    );
  });
});

describe('what a task expects that the import could not carry', () => {
  it('is written as not_checked and judged unclear in every dialogue, never as held', () => {
    const files = phoneDomain();
    // An env assertion and an initialization action of functions the domain does not have.
    const tasks = (files.get('tasks.json') ?? '')
      .replace('"func_name": "assert_line_active"', '"func_name": "assert_no_such_thing"')
      .replace('"func_name": "set_airplane_mode"', '"func_name": "set_no_such_mode"');
    files.set('tasks.json', tasks);
    const { files: written } = projectOfDomain(readTau2Domain('phone', files));
    const { model } = parseProject(projectFromFiles('phone', written).project);
    const notChecked = model.scenarios.flatMap((s) => s.expected.notChecked ?? []);
    // The two planted, and two the fixture already had (a speed test and a random setting the
    // reader cannot follow), which before were only noted at import.
    expect(notChecked).toEqual([
      expect.stringMatching(
        /^the dialogue starts without its setup: Initialization action set_no_such_mode/,
      ),
      expect.stringMatching(/^Environment assertion assert_internet_speed\(.*\) not carried/),
      expect.stringMatching(
        /^Environment assertion assert_no_such_thing\(.*\) not carried: no such function/,
      ),
      expect.stringMatching(
        /^the dialogue starts without its setup: Initialization action scramble_settings/,
      ),
    ]);
    const scenario = model.scenarios.find((s) => (s.expected.notChecked ?? []).length > 1);
    if (!scenario) throw new Error('No scenario carries both.');
    const start = seedDatabase(model, scenario.rows).db;
    const idle = { dialogue: 'd', messages: [], calls: [], changes: [] };
    const findings = checkExpectations(scenario, idle, start, start);
    const unclear = findings.filter((f) => f.id.startsWith('expected.not_checked'));
    expect(unclear.length).toBe(scenario.expected.notChecked?.length);
    expect(unclear.every((f) => !f.passed && f.unclear === true)).toBe(true);
    expect(unclear[0]?.detail).toMatch(/^Not checked: /);
  });
});
