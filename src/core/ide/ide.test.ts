import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { projectFromFiles } from '../bundle.ts';
import { parseProject } from '../format/parseProject.ts';
import { PROJECT_FILES } from '../project.ts';
import { MINI_FILES, miniProject } from '../testing/miniProject.ts';
import { ticketDesk } from '../testing/ticketDesk.ts';
import { completionsAt } from './completion.ts';
import { hoverText } from './hover.ts';
import { referencesOf, renameSymbol } from './references.ts';
import { definitionOf, symbolAt } from './symbols.ts';

const project = miniProject();
const parsed = parseProject(project);

function at(file: keyof typeof MINI_FILES, marker: string, shift = 0) {
  const text = MINI_FILES[file];
  const offset = text.indexOf(marker);
  if (offset < 0) throw new Error(`no ${marker} in ${file}`);
  return offset + shift;
}

describe('symbols', () => {
  it('knows what the word under the cursor names', () => {
    expect(
      symbolAt(
        parsed.model,
        MINI_FILES['rules.yaml'],
        at('rules.yaml', 'policy: refund-window', 10),
      ),
    ).toEqual({ kind: 'policy', name: 'refund-window' });
    expect(
      symbolAt(parsed.model, MINI_FILES['rules.yaml'], at('rules.yaml', 'refund_order:', 3)),
    ).toEqual({ kind: 'tool', name: 'refund_order' });
    expect(
      symbolAt(parsed.model, MINI_FILES['tools.yaml'], at('tools.yaml', 'update: orders', 9)),
    ).toEqual({ kind: 'table', name: 'orders' });
    expect(
      symbolAt(parsed.model, MINI_FILES['rules.yaml'], at('rules.yaml', 'decision')),
    ).toBeUndefined();
  });

  it('finds the definition and every reference, including names quoted in CEL', () => {
    const tool = { kind: 'tool', name: 'get_user' } as const;
    const definition = definitionOf(parsed, tool);
    expect(definition && MINI_FILES['tools.yaml'].slice(definition.start, definition.end)).toBe(
      'get_user',
    );
    const refs = referencesOf(project, parsed, tool);
    expect(refs.map((r) => `${r.file}${r.isDefinition ? '*' : ''}`)).toEqual([
      'policies.yaml',
      'tools.yaml*',
      'rules.yaml',
    ]);
    const inCel = refs.find((r) => r.file === 'rules.yaml');
    expect(inCel && MINI_FILES['rules.yaml'].slice(inCel.start - 1, inCel.end + 1)).toBe(
      '"get_user"',
    );
  });

  it('renames a policy id everywhere, and leaves prose alone', () => {
    const result = renameSymbol(
      project,
      parsed,
      { kind: 'policy', name: 'refund-window' },
      'refund-within-30-days',
    );
    if ('error' in result) throw new Error(result.error);
    // Three in policies.yaml and rules.yaml, one in the scenario's policies, two in the
    // expectations that name it.
    expect(result.count).toBe(7);
    const renamed = miniProject(result.files);
    expect(Object.values(renamed.files).join('\n')).not.toMatch(/\brefund-window\b/);
    expect(analyzeProject(renamed).diagnostics).toEqual([]);
    expect(renamed.files['agent.md']).toBe(MINI_FILES['agent.md']);
  });

  it('refuses a rename to an invalid or taken name', () => {
    expect(
      renameSymbol(project, parsed, { kind: 'policy', name: 'refund-window' }, 'Refund Window'),
    ).toMatchObject({ error: expect.stringMatching(/not a valid policy id/) as unknown });
    expect(
      renameSymbol(project, parsed, { kind: 'policy', name: 'refund-window' }, 'verify-identity'),
    ).toMatchObject({ error: 'A policy named "verify-identity" already exists.' });
    expect(
      renameSymbol(project, parsed, { kind: 'tool', name: 'get_user' }, 'get-user'),
    ).toMatchObject({ error: expect.stringMatching(/not a valid name/) as unknown });
  });

  it('renames a tool in the airline example without breaking anything', () => {
    const files = Object.fromEntries(
      PROJECT_FILES.map((f) => [f.name, readFileSync(`public/examples/airline/${f.name}`, 'utf8')]),
    );
    const airline = projectFromFiles('Airline', files).project;
    const airlineParsed = parseProject(airline);
    const result = renameSymbol(
      airline,
      airlineParsed,
      { kind: 'tool', name: 'get_user_details' },
      'lookup_user',
    );
    if ('error' in result) throw new Error(result.error);
    expect(result.count).toBeGreaterThan(5);
    const after = analyzeProject({ ...airline, files: { ...airline.files, ...result.files } });
    expect(after.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('completionsAt', () => {
  const labels = (file: keyof typeof MINI_FILES, text: string, offset = text.length) =>
    completionsAt(parsed.model, file, text, offset).map((c) => c.label);

  it('offers policy ids, tool names and tables where they belong', () => {
    expect(labels('rules.yaml', 'checks:\n  - id: x\n    policy: ')).toEqual([
      'verify-identity',
      'refund-window',
    ]);
    expect(
      labels('scenarios.yaml', 'scenarios:\n  - id: s\n    policies: [verify-identity, '),
    ).toEqual(['verify-identity', 'refund-window']);
    expect(labels('rules.yaml', 'checks:\n  - kind: tool_order\n    first: ')).toEqual([
      'get_user',
      'refund_order',
    ]);
    expect(labels('tools.yaml', 'tools:\n  - name: x\n    effects:\n      - update: ')).toEqual([
      'users',
      'orders',
    ]);
    expect(labels('rules.yaml', 'guards:\n  ')).toEqual(['get_user', 'refund_order']);
    // While a name is half typed, hyphens included.
    expect(labels('rules.yaml', 'checks:\n  - id: x\n    policy: refund-wi')).toEqual([
      'verify-identity',
      'refund-window',
    ]);
    expect(labels('rules.yaml', 'checks:\n  - kind: never_call\n    tool: refu')).toEqual([
      'get_user',
      'refund_order',
    ]);
  });

  it('offers values of enumerated fields', () => {
    expect(labels('rules.yaml', 'guards:\n  x:\n    rules:\n      - decision: ')).toEqual([
      'allow',
      'forbid',
    ]);
    expect(labels('rules.yaml', 'checks:\n  - kind: ')).toContain('confirm_before');
    const kinds = completionsAt(parsed.model, 'rules.yaml', 'checks:\n  - kind: ', 18);
    expect(kinds.find((c) => c.label === 'say_before_call')).toEqual({
      label: 'say_before_call',
      kind: 'value',
      detail: 'check kind',
      documentation:
        'Before each call to `tool`, an agent message (or the calling turn) matches `pattern`.',
    });
    expect(kinds.map((c) => c.label)).toContain('max_calls_per_turn');
    expect(labels('tools.yaml', 'tools:\n  - kind: ')).toEqual(['read', 'write']);
  });

  it("offers CEL variables, the guarded tool's parameters, tables and their columns", () => {
    const guard = 'guards:\n  refund_order:\n    rules:\n      - id: r\n        when: ';
    expect(labels('rules.yaml', guard)).toEqual(
      expect.arrayContaining(['args', 'db', 'history', 'tool', 'now', 'exists']),
    );
    expect(labels('rules.yaml', `${guard}args.`)).toEqual(['order_id', 'amount']);
    expect(labels('rules.yaml', `${guard}db.`)).toEqual(['users', 'orders']);
    expect(labels('rules.yaml', `${guard}db.orders.exists(o, o.`)).toEqual([
      'id',
      'user_id',
      'status',
      'days_since_delivery',
    ]);
    const effect =
      'tools:\n  - name: refund_order\n    effects:\n      - update: orders\n        where: row.';
    expect(labels('tools.yaml', effect)).toEqual([
      'id',
      'user_id',
      'status',
      'days_since_delivery',
    ]);
  });

  it('offers the variables a tool precondition sees (args, db, now; no history)', () => {
    const pre = 'tools:\n  - name: refund_order\n    requires:\n      - condition: ';
    const offered = labels('tools.yaml', pre);
    expect(offered).toEqual(expect.arrayContaining(['args', 'db', 'now']));
    expect(offered).not.toContain('history');
  });
});

describe('hoverText', () => {
  it('shows a policy, a tool with its parameters, and a table with its columns', () => {
    // The file's words are escaped, so they read as written once rendered.
    expect(hoverText(parsed.model, { kind: 'policy', name: 'refund-window' })).toMatch(
      /^\*\*refund\\-window\*\* · refunds · challenge 3\/5\n\nRefund only/,
    );
    expect(hoverText(parsed.model, { kind: 'tool', name: 'refund_order' })).toMatch(
      /- `order_id`: string\n- `amount`\?: number/,
    );
    expect(hoverText(parsed.model, { kind: 'table', name: 'orders' })).toMatch(
      /2 rows[\s\S]*`id`: string \(key\)/,
    );
  });

  it('lists a tool’s preconditions with the error each answers', () => {
    const tickets = parseProject(ticketDesk()).model;
    expect(hoverText(tickets, { kind: 'tool', name: 'cancel_order' })).toContain(
      '\n\nRequires:\n- `db.orders.exists(o, o.id == args.order_id)`, else: There is no such order\\.\n- ',
    );
    expect(hoverText(tickets, { kind: 'tool', name: 'refund' })).not.toContain('Requires');
  });
});
