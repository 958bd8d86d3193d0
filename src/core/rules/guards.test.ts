import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { miniProject, miniWith } from '../testing/miniProject.ts';
import type { GuardContext } from './guards.ts';
import { seedDatabase } from '../sim/database.ts';
import { decideToolCall } from './guards.ts';

const { model } = parseProject(miniProject());
const context = (history: GuardContext['history'] = []): GuardContext => ({
  db: seedDatabase(model).db,
  history,
  now: '2026-05-01T12:00:00Z',
});
const lookedUp = [{ tool: 'get_user', args: { user_id: 'u1' }, allowed: true }];

describe('decideToolCall', () => {
  it('lets the first matching rule decide, and says which and why', () => {
    const refused = decideToolCall(
      model,
      { tool: 'refund_order', args: { order_id: 'o1' } },
      context(),
    );
    expect(refused.allowed).toBe(false);
    expect(refused.decidedBy.kind === 'rule' && refused.decidedBy.rule.id).toBe(
      'refund-after-identity',
    );
    expect(refused.fallback).toBe('ask_user');
    expect(refused.reason).toBe('Verify the customer first.');
    expect(refused.trace.map((t) => t.outcome)).toEqual(['matched']);
  });

  it('falls through rules that do not match to the default', () => {
    const allowed = decideToolCall(
      model,
      { tool: 'refund_order', args: { order_id: 'o1' } },
      context(lookedUp),
    );
    expect(allowed.allowed).toBe(true);
    expect(allowed.decidedBy).toEqual({ kind: 'default', decision: 'allow' });
    expect(allowed.trace.map((t) => `${t.rule}:${t.outcome}`)).toEqual([
      'refund-after-identity:no-match',
      'refund-late:no-match',
    ]);
    const late = decideToolCall(
      model,
      { tool: 'refund_order', args: { order_id: 'o2' } },
      context(lookedUp),
    );
    expect(late.allowed).toBe(false);
    expect(late.reason).toBe('This order is outside the 30-day window.');
    expect(late.fallback).toBe('message');
  });

  it('refuses a call whose missing argument a condition reads, unless the rule says skip', () => {
    const missing = decideToolCall(model, { tool: 'refund_order', args: {} }, context(lookedUp));
    expect(missing.allowed).toBe(false);
    expect(missing.reason).toMatch(/"refund-late" needs "order_id", which is missing/);

    const skipping = parseProject(
      miniWith(
        'rules.yaml',
        '        message: This order is outside the 30-day window.\n',
        '        message: Late.\n        if_missing: skip\n',
      ),
    ).model;
    const skipped = decideToolCall(skipping, { tool: 'refund_order', args: {} }, context(lookedUp));
    expect(skipped.allowed).toBe(true);
    expect(skipped.trace.at(-1)?.outcome).toBe('skipped');
  });

  it('denies by default when the author says so', () => {
    const denying = parseProject(
      miniWith(
        'rules.yaml',
        '  refund_order:\n    rules:',
        '  refund_order:\n    default: deny\n    rules:',
      ),
    ).model;
    const decision = decideToolCall(
      denying,
      { tool: 'refund_order', args: { order_id: 'o1' } },
      context(lookedUp),
    );
    expect(decision).toMatchObject({
      allowed: false,
      decidedBy: { kind: 'default', decision: 'deny' },
    });
  });

  it('allows unguarded tools and refuses unknown ones', () => {
    expect(
      decideToolCall(model, { tool: 'get_user', args: { user_id: 'u1' } }, context()).decidedBy
        .kind,
    ).toBe('unguarded');
    const unknown = decideToolCall(model, { tool: 'drop_tables', args: {} }, context());
    expect(unknown).toMatchObject({ allowed: false, decidedBy: { kind: 'unknown-tool' } });
  });

  it('refuses when a condition cannot be evaluated or does not give true or false', () => {
    const odd = parseProject(
      miniWith(
        'rules.yaml',
        'when: \'!history.exists(c, c.tool == "get_user")\'',
        'when: size(history)',
      ),
    ).model;
    const decision = decideToolCall(
      odd,
      { tool: 'refund_order', args: { order_id: 'o1' } },
      context(),
    );
    expect(decision.allowed).toBe(false);
    expect(decision.reason).toMatch(/not true or false/);
  });
});
