import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { createProject } from '../project.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { miniProject, miniWith } from '../testing/miniProject.ts';
import { parseProject } from './parseProject.ts';

function only(diagnostics: readonly Diagnostic[], code: string): Diagnostic {
  const found = diagnostics.filter((d) => d.code === code);
  expect(found, `expected one "${code}" in ${JSON.stringify(diagnostics, null, 1)}`).toHaveLength(
    1,
  );
  return found[0] as Diagnostic;
}

describe('a new project', () => {
  it('starts without a single diagnostic', () => {
    expect(analyzeProject(createProject('Fresh')).diagnostics).toEqual([]);
  });
});

describe('the clean mini project', () => {
  it('has no diagnostics at all, lint included', () => {
    expect(analyzeProject(miniProject()).diagnostics).toEqual([]);
  });

  it('builds the model from every file', () => {
    const { model } = parseProject(miniProject());
    expect(model.policies.map((p) => p.id)).toEqual(['verify-identity', 'refund-window']);
    expect(model.relations[0]?.between).toEqual(['verify-identity', 'refund-window']);
    expect(model.tools.map((t) => `${t.name}:${t.kind}`)).toEqual([
      'get_user:read',
      'refund_order:write',
    ]);
    expect(model.tables.map((t) => `${t.name}:${t.rows.length}`)).toEqual(['users:2', 'orders:2']);
    expect(model.guards[0]?.rules.map((r) => r.id)).toEqual([
      'refund-after-identity',
      'refund-late',
    ]);
    expect(model.checks[0]?.kind).toBe('confirm_before');
    expect(model.scenarios[0]?.expected.forbiddenActions).toEqual(['refund_order']);
  });
});

describe('diagnostics, one kind at a time', () => {
  const cases: [
    string,
    ReturnType<typeof miniWith>,
    { file: string; line: number; message: RegExp; severity?: string },
  ][] = [
    [
      'yaml-syntax',
      miniWith('tools.yaml', 'kind: read', 'kind: [read'),
      { file: 'tools.yaml', line: 5, message: /Flow sequence .* must .* end with a \]/ },
    ],
    [
      'schema',
      miniWith('policies.yaml', 'challenge: 3', 'challenge: 9'),
      { file: 'policies.yaml', line: 12, message: /"challenge" must be at most 5/ },
    ],
    [
      'duplicate-id',
      miniWith('policies.yaml', 'id: refund-window', 'id: verify-identity'),
      { file: 'policies.yaml', line: 9, message: /used twice/ },
    ],
    [
      'unknown-tool',
      miniWith('policies.yaml', 'tools: [get_user]', 'tools: [get_usr]'),
      {
        file: 'policies.yaml',
        line: 7,
        message: /Unknown tool "get_usr". Did you mean "get_user"\?/,
      },
    ],
    [
      'unknown-policy',
      miniWith('rules.yaml', 'policy: verify-identity', 'policy: verify-identiti'),
      { file: 'rules.yaml', line: 5, message: /Did you mean "verify-identity"/ },
    ],
    [
      'bad-source',
      miniWith('policies.yaml', 'source: { line: 7 }', 'source: { line: 70 }'),
      { file: 'policies.yaml', line: 14, message: /line 70 does not exist/, severity: 'warning' },
    ],
    [
      'self-relation',
      miniWith(
        'policies.yaml',
        'between: [verify-identity, refund-window]',
        'between: [refund-window, refund-window]',
      ),
      { file: 'policies.yaml', line: 16, message: /cannot relate to itself/ },
    ],
    [
      'duplicate-relation',
      miniWith(
        'policies.yaml',
        '    origin: manual\n',
        '    origin: manual\n  - between: [refund-window, verify-identity]\n    weight: 2\n',
      ),
      { file: 'policies.yaml', line: 19, message: /already related/, severity: 'warning' },
    ],
    [
      'unknown-column',
      miniWith('tools.yaml', 'set: { status: \'"refunded"\' }', 'set: { state: \'"refunded"\' }'),
      { file: 'tools.yaml', line: 25, message: /Unknown column "state" in table "orders"/ },
    ],
    [
      'unknown-table',
      miniWith('tools.yaml', 'update: orders', 'update: order'),
      { file: 'tools.yaml', line: 23, message: /Unknown table "order". Did you mean "orders"\?/ },
    ],
    [
      'bad-row',
      miniWith('database.yaml', 'days_since_delivery: 5 }', 'days_since_delivery: five }'),
      { file: 'database.yaml', line: 18, message: /must be an integer, not "five"/ },
    ],
    [
      'duplicate-key',
      miniWith('database.yaml', '{ id: u2, name: Grace }', '{ id: u1, name: Grace }'),
      { file: 'database.yaml', line: 9, message: /already has id "u1"/ },
    ],
    [
      'missing-row',
      miniWith('database.yaml', 'user_id: u2,', 'user_id: u9,'),
      { file: 'database.yaml', line: 19, message: /No row of "users" has id "u9"/ },
    ],
    [
      'unknown-parameter',
      miniWith('tools.yaml', 'required: [order_id]', 'required: [order_id, reason]'),
      {
        file: 'tools.yaml',
        line: 21,
        message: /"reason" is required but not among the parameters/,
      },
    ],
    [
      'missing-where',
      miniWith('tools.yaml', '        where: row.id == args.order_id\n', ''),
      { file: 'tools.yaml', line: 23, message: /would touch every row/, severity: 'warning' },
    ],
    [
      'cel',
      miniWith('rules.yaml', 'o.days_since_delivery > 30)', 'o.days_since_delivery > )'),
      { file: 'rules.yaml', line: 13, message: /CEL: Unexpected "\)"/ },
    ],
    [
      'missing-message',
      miniWith('rules.yaml', '        message: This order is outside the 30-day window.\n', ''),
      { file: 'rules.yaml', line: 12, message: /gives no "message"/, severity: 'info' },
    ],
    [
      'missing-field',
      miniWith('rules.yaml', '    tool: refund_order\n', ''),
      { file: 'rules.yaml', line: 18, message: /A confirm_before check needs "tool"/ },
    ],
    [
      'bad-pattern',
      miniWith(
        'rules.yaml',
        'checks:\n',
        "checks:\n  - id: no-codes\n    policy: refund-window\n    kind: must_not_say\n    pattern: '(open'\n",
      ),
      { file: 'rules.yaml', line: 19, message: /not a valid regular expression/ },
    ],
  ];

  it.each(cases)('%s', (code, project, want) => {
    const d = only(parseProject(project).diagnostics, code);
    expect(d.file).toBe(want.file);
    expect(d.line).toBe(want.line);
    expect(d.message).toMatch(want.message);
    expect(d.severity).toBe(want.severity ?? 'error');
  });

  it('points a CEL error at its own line and column inside the YAML', () => {
    const d = only(
      parseProject(
        miniWith('rules.yaml', 'o.days_since_delivery > 30)', 'o.days_since_delivery > )'),
      ).diagnostics,
      'cel',
    );
    const line =
      miniWith('rules.yaml', 'o.days_since_delivery > 30)', 'o.days_since_delivery > )').files[
        'rules.yaml'
      ].split('\n')[d.line - 1] ?? '';
    expect(line.slice(d.column - 1, d.column)).toBe(')');
  });

  it('names an unknown CEL variable and suggests the right one', () => {
    const d = only(
      parseProject(miniWith('rules.yaml', 'args.order_id &&', 'arg.order_id &&')).diagnostics,
      'cel',
    );
    expect(d.message).toMatch(/Unknown variable "arg". Did you mean "args"\?/);
  });

  it('reports an unknown field at its key, with a suggestion', () => {
    const project = miniWith(
      'policies.yaml',
      '    category: identity\n',
      '    categroy: identity\n',
    );
    const diagnostics = parseProject(project).diagnostics.filter((d) => d.code === 'schema');
    const unknown = diagnostics.find((d) => d.message.startsWith('Unknown field'));
    expect(unknown?.message).toBe('Unknown field "categroy". Did you mean "category"?');
    expect(unknown?.column).toBe(5);
    expect(diagnostics.some((d) => d.message.startsWith('Missing category'))).toBe(true);
  });

  it('reports rows that break the table schema in scenarios too', () => {
    const project = miniWith(
      'scenarios.yaml',
      '    expected:\n',
      '    rows:\n      orders:\n        - { id: o9, user_id: u1, status: lost, days_since_delivery: 1 }\n    expected:\n',
    );
    expect(only(parseProject(project).diagnostics, 'bad-row').message).toMatch(
      /"status" must be one of "delivered", "refunded", not "lost"/,
    );
  });

  it('warns about a tag it does not know, and reads the value as text', () => {
    const { diagnostics } = parseProject(
      miniWith('policies.yaml', 'challenge: 3', 'challenge: !weird 3'),
    );
    expect(only(diagnostics, 'yaml-warning')).toMatchObject({
      line: 12,
      severity: 'warning',
      message: 'Unresolved tag: !weird',
    });
    expect(only(diagnostics, 'schema').message).toBe('"challenge" must be a whole number.');
  });

  it('survives parameters of the wrong shape (found by the property test)', () => {
    const project = miniWith('tools.yaml', 'required: [order_id]', 'required: order_id');
    const { diagnostics, model } = parseProject(project);
    expect(only(diagnostics, 'schema').message).toBe(
      '"required" must be a list (lines starting with "-").',
    );
    expect(model.tools[1]?.parameters.required).toEqual([]);
  });

  it('reports one YAML error, not every reference into the broken file', () => {
    const { diagnostics } = parseProject(miniWith('tools.yaml', 'kind: read', 'kind: [read'));
    expect(diagnostics.map((d) => d.code)).toEqual(['yaml-syntax']);
  });

  it('keeps reading the other files when one is broken', () => {
    const { model, diagnostics } = parseProject(miniWith('database.yaml', 'tables:', 'tables: ['));
    expect(diagnostics.some((d) => d.file === 'database.yaml' && d.code === 'yaml-syntax')).toBe(
      true,
    );
    expect(model.policies).toHaveLength(2);
    expect(model.tables).toHaveLength(0);
  });

  it('reports an alias bomb instead of expanding it', () => {
    const bomb =
      'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n';
    const { diagnostics } = parseProject(miniProject({ 'policies.yaml': bomb }));
    expect(
      diagnostics.some(
        (d) => d.file === 'policies.yaml' && /cannot be read|alias/i.test(d.message),
      ),
    ).toBe(true);
  });
});
