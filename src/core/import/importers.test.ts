import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { projectFromFiles } from '../bundle.ts';
import { readIntellagentDomain } from './intellagent.ts';
import { readTau2Domain } from './tau2.ts';
import { projectOfDomain } from './toProject/index.ts';
import { negate } from './toProject/requires.ts';
import { replayTasks } from './replay.ts';
import { parseProject } from '../format/parseProject.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const read = (...parts: string[]) => readFileSync(path.join(here, 'testdata', ...parts), 'utf8');

function tau2Library(): Map<string, string> {
  return new Map([
    ['policy.md', read('tau2-library', 'data', 'policy.md')],
    ['tasks.json', read('tau2-library', 'data', 'tasks.json')],
    ['db.json', read('tau2-library', 'data', 'db.json')],
    ['tools.py', read('tau2-library', 'src', 'tools.py')],
    ['data_model.py', read('tau2-library', 'src', 'data_model.py')],
    ['user_tools.py', read('tau2-library', 'src', 'user_tools.py')],
  ]);
}

function intellagentGym(): Map<string, string> {
  const files = new Map([['wiki.md', read('intellagent-gym', 'wiki.md')]]);
  for (const folder of ['tools', 'data'])
    for (const f of readdirSync(path.join(here, 'testdata', 'intellagent-gym', folder)))
      files.set(`${folder}/${f}`, read('intellagent-gym', folder, f));
  return files;
}

const errorsOf = (files: Record<string, string>) =>
  analyzeProject(projectFromFiles('imported', files).project).diagnostics.filter(
    (d) => d.severity === 'error',
  );

describe('readTau2Domain', () => {
  const domain = readTau2Domain('library', tau2Library());

  it('reads the @is_tool methods with kinds, schemas from signature and docstring, and raises', () => {
    expect(domain.notes).toEqual([]);
    expect(domain.tools.map((t) => [t.name, t.kind])).toEqual([
      ['return_book', 'write'],
      ['pay_fine', 'write'],
      ['get_member', 'read'],
      ['lend_book', 'write'],
      ['transfer_to_librarian', 'generic'],
    ]);
    const lend = domain.tools.find((t) => t.name === 'lend_book');
    expect(lend?.description).toBe('Lend a book to a member.');
    expect(lend?.parameters).toEqual({
      type: 'object',
      properties: {
        card: { type: 'string', description: "The member's card number." },
        book_id: {
          type: 'string',
          description: 'The shelf code of the book, as printed on its spine.',
        },
        // A literal default is the value a call that leaves the argument out runs with.
        days: { type: 'integer', description: 'How many days the loan runs.', default: 14 },
        format: { type: 'string', description: 'Paper or ebook.', default: 'paper' },
      },
      required: ['card', 'book_id'],
    });
    // In the order the body reaches them; the helper's own failure where the body calls it.
    expect(lend?.preconditions.map((p) => [p.message, p.condition, p.direct, p.via])).toEqual([
      ['Unknown format', 'format not in ("paper", "ebook")', true, undefined],
      ['No such member', 'card not in self.db.members', true, '_member'],
      ['Too many loans', 'len(member.loans) >= 3', true, undefined],
      ['No copy of {book_id} left', 'book.copies < 1', true, undefined],
    ]);
  });

  it('types the tables from the data model and reads tasks with their extras', () => {
    expect(domain.tables.map((t) => [t.name, t.key, t.rows.length])).toEqual([
      ['books', 'book_id', 2],
      ['members', 'card', 12],
      ['loans', 'loan_id', 12],
    ]);
    const loans = domain.tables[2];
    expect(loans?.columns.find((c) => c.name === 'state')?.schema).toEqual({
      type: 'string',
      enum: ['open', 'returned'],
      description: 'Open or returned',
    });
    expect(loans?.columns.find((c) => c.name === 'note')?.required).toBe(false);
    const [first, second] = domain.tasks;
    expect(first).toMatchObject({
      id: '0',
      goal: 'You want to borrow B1.',
      instructions: 'You are brief.',
      knows: ['Your card is C-107.'],
      communicate: ['14 days'],
      nlAssertions: ['Agent states the due date.'],
    });
    expect(second).toMatchObject({
      id: 'x 1',
      persona: 'A hurried student.',
      goal: 'Ask to renew a loan.',
    });
    // Dual control (initialization actions, environment assertions) is read into fields of its own.
    expect(second?.extras.map((e) => e.what)).toEqual(['an environment call without a func_name']);
    expect(second?.envAssertions).toEqual([
      { env: 'assistant', func: 'loan_open', arguments: {}, assertValue: true },
      { env: 'assistant', func: 'loan_open', arguments: { loan_id: 'L8' }, assertValue: false },
    ]);
  });

  it('notes missing and broken files instead of throwing', () => {
    const files = tau2Library();
    files.delete('db.json');
    files.set('tasks.json', '[{"id": 1,');
    files.set(
      'tools.py',
      'class T:\n    @is_tool(ToolType.READ)\n    def f(self, a: Mystery):\n        """F."""\n',
    );
    const broken = readTau2Domain('library', files);
    expect(broken.notes.map((n) => `${n.item}: ${n.message}`)).toEqual([
      'tool f, argument a: The type "Mystery" could not be resolved; the argument accepts any value.',
      expect.stringMatching(/^tasks\.json: Not valid JSON/),
      'db.json: Not found; database.yaml is left empty.',
    ]);
  });
});

describe('projectOfDomain', () => {
  it('writes a tau2 domain as a project that checks without errors and lists what it left out', () => {
    const { files, notCarried } = projectOfDomain(readTau2Domain('library', tau2Library()));
    expect(errorsOf(files)).toEqual([]);
    const database = parse(files['database.yaml']) as {
      tables: Array<{
        name: string;
        columns: Record<string, unknown>;
        rows: Array<Record<string, unknown>>;
      }>;
    };
    const members = database.tables.find((t) => t.name === 'members');
    expect(Object.keys(members?.columns ?? {})).toEqual([
      'card',
      'name',
      'address',
      'loans',
      'fine',
    ]);
    expect(members?.columns.address).toMatchObject({
      type: 'object',
      schema: { type: 'object', required: ['street', 'town'] },
    });
    expect(members?.columns.loans).toMatchObject({
      type: 'array',
      schema: { type: 'array', items: { type: 'string' } },
    });
    expect(members?.rows[7]).toEqual({
      card: 'C-107',
      name: 'Member 7',
      address: { street: '7 Elm St', town: 'Oxbury' },
      loans: ['L7'],
      fine: 1.75,
    });
    expect(parse(files['database.yaml'])).toMatchObject({ now: '2024-05-15T09:30:00-04:00' });
    const tools = parse(files['tools.yaml']) as {
      tools: Array<{
        name: string;
        kind: string;
        returns?: string;
        requires?: Array<{ condition: string; error: string }>;
        effects?: unknown[];
        parameters: { properties: Record<string, unknown> };
      }>;
    };
    const tool = (name: string) => tools.tools.find((t) => t.name === name);
    expect(tools.tools.map((t) => [t.name, t.kind, t.returns])).toEqual([
      ['return_book', 'write', undefined],
      ['pay_fine', 'write', undefined],
      // A read tool's own answer, read from its body: the member it looked up, a fixed text.
      ['get_member', 'read', 'db.members.filter(r, r.card == args.card)[0]'],
      ['lend_book', 'write', undefined],
      ['transfer_to_librarian', 'read', '"Transferred"'],
      ['scan_card', 'write', undefined],
    ]);
    // What the reader could not follow is not imported, with its reason; nothing else is.
    expect(
      tools.tools.flatMap((t) => {
        const reason = (t as { not_imported?: string }).not_imported;
        return reason === undefined ? [] : [[t.name, reason]];
      }),
    ).toEqual([]);
    expect(tool('return_book')?.requires).toEqual([
      { condition: 'db.loans.exists(r, r.loan_id == args.loan_id)', error: 'No such loan' },
      {
        condition: 'db.loans.filter(r, r.loan_id == args.loan_id)[0].state == "open"',
        error: 'Loan already returned',
      },
    ]);
    expect(tool('return_book')?.effects).toEqual([
      {
        update: 'loans',
        where: 'row.loan_id == args.loan_id',
        set: { state: '"returned"', note: 'args.note' },
      },
    ]);
    expect(tool('pay_fine')?.effects).toEqual([
      {
        update: 'members',
        where: 'row.card == args.card',
        set: { fine: 'row.fine - args.amount', loans: 'row.loans + [args.card]' },
      },
    ]);
    // The whole body reads as failures and one change: the loan count, then a copy fewer.
    expect(tool('lend_book')?.requires?.map((r) => r.error)).toEqual([
      'Unknown format',
      'No such member',
      'Too many loans',
      'No copy of {book_id} left',
    ]);
    expect(tool('lend_book')?.effects).toEqual([
      {
        update: 'books',
        where: 'row.book_id == args.book_id',
        set: { copies: 'row.copies - 1.0' },
      },
    ]);
    expect(tool('lend_book')?.parameters.properties.format).toEqual({
      type: 'string',
      description: 'Paper or ebook.',
      default: 'paper',
    });
    const scenarios = parse(files['scenarios.yaml']) as {
      scenarios: Array<Record<string, unknown>>;
    };
    expect(scenarios.scenarios[0]).toEqual({
      id: 'task-0',
      goal: 'You want to borrow B1.\n\nYou are brief.',
      knows: ['Your card is C-107.'],
      unknown: ['You do not know your fine.'],
      // Each action charged to the policy extracted for its tool; those policies are in play.
      policies: ['look-up-member-card-number-before', 'before-lending-book-state-due-date'],
      expected: {
        required_actions: [
          {
            tool: 'get_member',
            args: { card: 'C-107' },
            policy: 'look-up-member-card-number-before',
          },
          {
            tool: 'lend_book',
            args: { card: 'C-107', book_id: 'B1' },
            policy: 'before-lending-book-state-due-date',
          },
          // No policy governs returns: the change is charged to none (and the report says so).
          { tool: 'return_book', args: { loan_id: 'L7', note: 'worn' } },
          // A lookup serves the step beside it: no step after it has a policy, so the one before.
          {
            tool: 'transfer_to_librarian',
            args: { summary: 'fine' },
            compare_args: [],
            policy: 'before-lending-book-state-due-date',
          },
        ],
        // What the agent must say: no policy's words, no answer holds it; the task's last
        // change with a policy. The assertion shares "state" and "due date" with that policy.
        must_say: [{ phrase: '14 days', policy: 'before-lending-book-state-due-date' }],
        assertions: [
          { assertion: 'Agent states the due date.', policy: 'before-lending-book-state-due-date' },
        ],
        // The task's reward_basis is DB alone: the rest is shown, not graded.
        graded_by: ['end_state'],
        // The gold run through the imported tools: lend_book takes a copy of B1 (its `format`
        // left out, so its default), return_book closes L7; nothing else may change.
        end_state: {
          books: { B1: { copies: 1 } },
          loans: { L7: { state: 'returned', note: 'worn' } },
        },
      },
    });
    // An env assertion on the agent's database: the function's failure, then what it returns,
    // with its default argument written in.
    expect(scenarios.scenarios[1]).toMatchObject({
      id: 'task-x-1',
      persona: 'A hurried student.',
      expected: {
        database: [
          '(db.loans.exists(r, r.loan_id == "L7")) && (db.loans.filter(r, r.loan_id == "L7")[0].state == "open")',
          // assert_value false: the function must still not fail, and must return false.
          '(db.loans.exists(r, r.loan_id == "L8")) && !(db.loans.filter(r, r.loan_id == "L8")[0].state == "open")',
        ],
        // No reward_basis: tau2-bench's default, the database and what the agent communicates.
        graded_by: ['end_state', 'must_say'],
      },
    });
    const report = notCarried.map((n) => `${n.file} | ${n.item} | ${n.message}`);
    expect(report).toEqual(
      expect.arrayContaining([
        'tools.yaml | tool lend_book | "No copy of {book_id} left" names values of the call; the message keeps their names in braces.',
        'scenarios.yaml | task x 1 | Expects a call to renew_loan, which is not a tool of the domain; left out.',
        'tools.yaml | user tool scan_card | A write tool whose body only answers or fails; it has no effects.',
        'policies.yaml | tool return_book | No policy extracted from the domain’s policy governs this tool, so a scenario step that calls it is charged to no policy; link one under `tools:`.',
        'scenarios.yaml | task x 1 | an environment call without a func_name not carried: [{"name":"set_clock"}].',
      ]),
    );
    // Nothing carried is reported as not carried.
    expect(report.join('\n')).not.toMatch(
      /tools\.yaml.*return_book|pay_fine|Natural-language|persona|database\.yaml/,
    );
    const policies = parse(files['policies.yaml']) as {
      policies: Array<{ id: string; tools?: string[] }>;
    };
    expect(policies.policies.map((p) => p.id)).not.toContain('domain-policy');
    expect(policies.policies.length).toBeGreaterThan(3);
  });

  it('writes an IntellAgent domain as a project that checks without errors', () => {
    const domain = readIntellagentDomain('gym', intellagentGym());
    expect(domain.tools.map((t) => [t.name, t.kind, t.description])).toEqual([
      ['book_class', 'write', 'Book a class for a member. Ask for confirmation first.'],
      ['get_member', 'read', 'Look up a member.'],
    ]);
    expect(domain.tools[0]?.preconditions.map((p) => [p.message, p.condition])).toEqual([
      ['Error: no such badge', "badge not in data['members']"],
    ]);
    expect(domain.notes.map((n) => `${n.item}: ${n.message}`)).toEqual([
      expect.stringMatching(/^tools\/broken\.py: Broken\.get_info: It does not return a plain/),
      expect.stringMatching(
        /^data\/members\.csv, row 3, column address: It looks like a Python list/,
      ),
    ]);
    const members = domain.tables.find((t) => t.name === 'members');
    expect(members?.key).toBe('badge');
    expect(members?.rows[1]).toEqual({
      name: 'Bo, Jr.',
      badge: 'G-2',
      plan: 'silver',
      visits: '3',
      address: { town: 'Elmfield', zip: '02' },
    });
    const { files } = projectOfDomain(domain);
    expect(errorsOf(files)).toEqual([]);
    const tools = parse(files['tools.yaml']) as {
      tools: Array<{ name: string; returns?: string }>;
    };
    expect(tools.tools[1]?.returns).toBe('db.members.filter(r, r.badge == args.badge)');
    expect((tools.tools[0] as { requires?: unknown }).requires).toEqual([
      { condition: 'db.members.exists(r, r.badge == args.badge)', error: 'no such badge' },
    ]);
  });
});

describe('replayTasks', () => {
  it('runs each call on the database the one before left: a second return of a loan fails', () => {
    const domain = readTau2Domain('library', tau2Library());
    const { files, toolNames } = projectOfDomain(domain);
    const { model } = parseProject(projectFromFiles('library', files).project);
    const action = { name: 'return_book', arguments: { loan_id: 'L7', note: 'worn' } };
    const task = {
      ...domain.tasks[0],
      id: 'twice',
      actions: [action, action],
    } as (typeof domain.tasks)[number];
    const [replay] = replayTasks(model, [task], toolNames, '2024-05-15T09:30:00-04:00');
    expect(replay?.calls).toEqual([
      { tool: 'return_book', ok: true, changes: 1 },
      { tool: 'return_book', ok: false, error: 'Loan already returned', changes: 0 },
    ]);
  });

  it('negates a condition, unwrapping only a whole !(…)', () => {
    expect(negate('!(a)')).toBe('a');
    expect(negate('!(a) && !(b)')).toBe('!(!(a) && !(b))');
    expect(negate('a == b')).toBe('!(a == b)');
  });
});

describe('importers on broken input', () => {
  /** A fixture file cut, or with junk spliced in, or replaced with junk. */
  const mangled = (text: string) =>
    fc.oneof(
      fc.nat(text.length).map((n) => text.slice(0, n)),
      fc
        .tuple(fc.nat(text.length), fc.string({ maxLength: 8 }))
        .map(([n, junk]) => text.slice(0, n) + junk + text.slice(n)),
      fc.string({ maxLength: 40 }),
      fc.jsonValue().map((v) => JSON.stringify(v)),
    );

  it('never throw on mangled tau2 files, and what they write checks without errors (property)', () => {
    const files = tau2Library();
    const names = [...files.keys()];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.integer(), (name, seed) => {
        const text = files.get(name) ?? '';
        const [value] = fc.sample(mangled(text), { seed, numRuns: 1 });
        const broken = new Map(files).set(name, value ?? '');
        const domain = readTau2Domain('library', broken);
        expect(errorsOf(projectOfDomain(domain).files).map((d) => `${name}: ${d.message}`)).toEqual(
          [],
        );
      }),
      { numRuns: 150 },
    );
  });

  it('never throw on mangled IntellAgent files, and what they write checks without errors (property)', () => {
    const files = intellagentGym();
    const names = [...files.keys()];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.integer(), (name, seed) => {
        const [value] = fc.sample(mangled(files.get(name) ?? ''), { seed, numRuns: 1 });
        const domain = readIntellagentDomain('gym', new Map(files).set(name, value ?? ''));
        expect(errorsOf(projectOfDomain(domain).files).map((d) => `${name}: ${d.message}`)).toEqual(
          [],
        );
      }),
      { numRuns: 150 },
    );
  });
});
