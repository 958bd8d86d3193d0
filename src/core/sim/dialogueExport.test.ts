import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOG_VERSION } from './events.ts';
import { DIALOGUE_FORMAT, dialogueJson, dialogueMarkdown } from './dialogueExport.ts';
import type { PolicyFacts } from './reportTypes.ts';
import { transcriptOf } from './transcript.ts';
import { hostileText, lines, markdownProblems, readQuote } from '../testing/markdown.ts';
import type { Draft } from '../testing/reportLogs.ts';
import { stamp, start } from '../testing/reportLogs.ts';
import { testScenario } from '../testing/scenarios.ts';
import { REFUND_PLAN, mini, refundJudge, simulateRefunds } from '../../test/refundDesk.ts';

const FACTS: PolicyFacts = new Map(
  mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
);

const judgedRun = async () =>
  (await simulateRefunds({ ...REFUND_PLAN, judge: { engine: refundJudge, model: 'judge-model' } }))
    .events;

/** Asserts the parts appear in the document in this order. */
function expectInOrder(doc: string, parts: readonly string[]): void {
  let from = 0;
  for (const part of parts) {
    const at = doc.indexOf(part, from);
    expect(at, `"${part}" after offset ${from}`).toBeGreaterThanOrEqual(0);
    from = at + part.length;
  }
}

/** A person's later additions to late#1: marks changed and withdrawn, notes replaced and removed. */
const PEOPLE: Draft[] = [
  {
    type: 'mark',
    dialogue: 'late#1',
    target: { kind: 'judge', policy: 'refund-window' },
    correct: false,
  },
  {
    type: 'mark',
    dialogue: 'late#1',
    target: { kind: 'judge', policy: 'refund-window' },
    correct: true,
  },
  {
    type: 'mark',
    dialogue: 'late#1',
    target: { kind: 'finding', id: 'confirm-refund' },
    correct: false,
  },
  {
    type: 'mark',
    dialogue: 'late#1',
    target: { kind: 'finding', id: 'confirm-refund' },
    correct: null,
  },
  { type: 'note', dialogue: 'late#1', turn: 2, text: 'First thought' },
  { type: 'note', dialogue: 'late#1', turn: 2, text: 'Should have\nsaid no' },
  { type: 'note', dialogue: 'late#1', turn: 0, text: 'Removed later' },
  { type: 'note', dialogue: 'late#1', turn: 0, text: '' },
];

describe('dialogueMarkdown', () => {
  it('writes a failed dialogue of a real run for a ticket, the judge apart and people last', async () => {
    const events = await judgedRun();
    const last = events.at(-1)?.at ?? 0;
    const doc = dialogueMarkdown(
      [...events, ...PEOPLE.map((d, i) => ({ ...d, at: last + i + 1 }))],
      'late#1',
      FACTS,
    );
    expectInOrder(doc, [
      '# late, trial 1: failed\n',
      '- **Persona:** A customer.',
      '- **Goal:** Refund order o2.',
      '- **The user knows:** user id u1',
      '- **Policies under test:** refund-window (refunds)',
      '    - db.orders.exists(o, o.id == "o2" \\&\\& o.status == "delivered")',
      '- **Models:** agent agent-model, user user-model, judge judge-model',
      '- **Seed:** 7',
      '- **The time the run saw:** 2026-11-21T12:00:00Z',
      '- **How it ended:** The customer ended the conversation.',
      '### The customer’s 1st message\n\n> Refund order o2. I am u1. Yes, go ahead.',
      '### The agent’s 1st reply\n\n*(no words)*',
      '**Tool call:** get\\_user, with arguments:\n\n```json\n{\n  "user_id": "u1"\n}\n```',
      '### The agent’s 2nd reply',
      '**Tool call:** refund\\_order',
      '**Guard:** Refused by rule refund-late for policy refund-window; fallback: the agent is told why. This order is outside the 30-day window.',
      '**Result** (an error):\n\n```\nRefused: This order is outside the 30-day window.\n```',
      '### The agent’s 3rd reply\n\n> All done with o2.',
      '### The customer’s 2nd message\n\n> Thanks.',
      '## Deterministic findings',
      // Failed first, then what held.
      '- **Failed (tried, refused):** Guard rule refund-late, policy refund-window, at the agent’s 2nd reply.',
      '- **Held:** confirm-refund, policy refund-window.',
      '## The judge model’s opinion',
      '*A model’s opinion, not a finding',
      '**refund-window: violated**, at the agent’s 2nd reply. It tried to refund an order delivered 45 days ago.',
      'Evidence it quoted:\n\n> refund\\_order({"order\\_id":"o2"})',
      '## People’s marks\n\n- The judge’s opinion on refund-window: a person marked it right.\n\n',
      '## People’s notes\n\n### On the agent’s 2nd reply\n\n> Should have\n> said no\n',
    ]);
    // The withdrawn mark, the replaced and the removed note are gone.
    expect(doc).not.toContain('confirm-refund: a person marked');
    expect(doc).not.toContain('First thought');
    expect(doc).not.toContain('Removed later');
    expect(doc.endsWith('said no\n')).toBe(true);
  });

  it('shows the rows a call changed, field by field', async () => {
    const doc = dialogueMarkdown(await judgedRun(), 'fresh#1', FACTS);
    expect(doc).toContain(
      '**Rows changed:**\n- orders o1, status: "delivered" → "refunded"\n\n### The agent’s 3rd reply',
    );
    expect(doc).toContain('**refund-window: kept**. Kept.');
    expect(doc).not.toContain('## People’s');
  });

  it('names a refusal by no rule, calls whose words never came, and who ended it', () => {
    const events = stamp([
      start,
      { type: 'scenario', scenario: testScenario({ id: 's1' }), source: 'hand-written' },
      { type: 'dialogue-started', dialogue: 'd1', scenario: 's1', trial: 1 },
      { type: 'message', dialogue: 'd1', turn: 0, speaker: 'user', text: 'Hi' },
      { type: 'tool-call', dialogue: 'd1', turn: 1, call: 'c1', tool: 'nope', args: {} },
      { type: 'guard', dialogue: 'd1', call: 'c1', allowed: false, reason: 'No such tool.' },
      {
        type: 'checks',
        dialogue: 'd1',
        findings: [{ id: 'tone', policy: 'p', passed: true, detail: 'Skipped: no such field.' }],
      },
      {
        type: 'dialogue-ended',
        dialogue: 'd1',
        reason: 'provider-error',
        detail: '500',
        role: 'agent',
      },
    ]);
    const doc = dialogueMarkdown(events, 'd1');
    expectInOrder(doc, [
      '# s1, trial 2: error (an outside reason, not the agent’s failure)',
      '- **How it ended:** The model’s provider failed. (The agent’s model call.) 500',
      '### The agent’s 1st reply (its words never came)',
      '**Guard:** Refused. No such tool.',
      '**Result:** none was logged.',
      // A refusal no rule made charges no policy; a check that could not judge did not hold.
      '## Deterministic findings\n\n- **Skipped:** tone, policy p. no such field.',
    ]);
    const unchecked = events.filter((e) => e.type !== 'checks');
    expect(dialogueMarkdown(unchecked, 'd1')).toContain(
      '## Deterministic findings\n\nThe checks have not run.',
    );
    expect(dialogueMarkdown(events, 'd9')).toBe(
      '# Dialogue d9\n\nThis log has no such dialogue.\n',
    );
  });

  it('keeps whatever a model or a file wrote from changing the document', () => {
    const anyText = fc.record({
      user: hostileText,
      agent: hostileText,
      tool: hostileText,
      arg: hostileText,
      result: hostileText,
      rule: hostileText,
      scenario: hostileText,
      persona: hostileText,
      detail: hostileText,
      evidence: hostileText,
      note: hostileText,
    });
    fc.assert(
      fc.property(anyText, (t) => {
        const d = 'd1';
        const events = stamp([
          start,
          {
            type: 'scenario',
            scenario: testScenario({
              id: t.scenario,
              persona: t.persona,
              knows: [t.detail],
              expected: { mustSay: [t.detail, t.note] },
            }),
            source: 'generated',
          },
          { type: 'dialogue-started', dialogue: d, scenario: t.scenario, trial: 0 },
          { type: 'message', dialogue: d, turn: 0, speaker: 'user', text: t.user },
          { type: 'tool-call', dialogue: d, turn: 1, call: 'c', tool: t.tool, args: { q: t.arg } },
          { type: 'guard', dialogue: d, call: 'c', allowed: false, rule: t.rule, reason: t.detail },
          { type: 'tool-result', dialogue: d, call: 'c', ok: false, result: t.result, changes: [] },
          { type: 'message', dialogue: d, turn: 1, speaker: 'agent', text: t.agent },
          { type: 'dialogue-ended', dialogue: d, reason: 'user-done', detail: t.detail },
          {
            type: 'checks',
            dialogue: d,
            findings: [{ id: t.rule, policy: t.tool, passed: false, turn: 1, detail: t.detail }],
          },
          {
            type: 'judge',
            dialogue: d,
            policy: t.tool,
            violated: true,
            turn: 1,
            reason: t.detail,
            evidence: t.evidence,
          },
          { type: 'note', dialogue: d, turn: 1, text: t.note },
        ]);
        const doc = dialogueMarkdown(events, d);
        expect(markdownProblems(doc)).toEqual([]);
        // Each message sits whole inside its own quote, right under its heading.
        const said = [
          ['### The customer’s 1st message', t.user],
          ['### The agent’s 1st reply', t.agent],
          ['### On the agent’s 1st reply', t.note],
        ] as const;
        for (const [heading, text] of said) {
          const after = doc.split(`\n${heading}\n\n`)[1] ?? '';
          const body = after.replace(/\n$/, '').split('\n\n')[0] ?? '';
          if (text === '' && heading.startsWith('### The')) expect(body).toBe('*(no words)*');
          if (text === '') continue;
          expect(lines(body).every((l) => l.startsWith('>'))).toBe(true);
          expect(readQuote(lines(body))).toBe(text.replace(/\r\n|\r|\n|\u2028|\u2029/g, '\n'));
        }
      }),
    );
  });
});

describe('dialogueJson', () => {
  it('gives the run without its seed rows, the scenario and every event of the dialogue', async () => {
    const events = await judgedRun();
    const exported = dialogueJson(events, 'late#2');
    expect(exported.format).toBe(DIALOGUE_FORMAT);
    expect(exported.version).toBe(LOG_VERSION);
    expect(exported.run).toMatchObject({ type: 'run-started', seed: 7, projectHash: 'abc' });
    expect(exported.run).not.toHaveProperty('database');
    expect(exported.scenario?.id).toBe('late');
    const own = events.filter((e) => 'dialogue' in e && e.dialogue === 'late#2');
    expect(exported.events).toEqual(own);
    // Plain JSON: it reads back the same, and replays the same dialogue.
    const back = JSON.parse(JSON.stringify(exported)) as typeof exported;
    expect(back).toEqual(exported);
    expect(transcriptOf(back.events, 'late#2')).toEqual(transcriptOf(events, 'late#2'));
    expect(dialogueJson(events, 'nope')).toMatchObject({ scenario: null, events: [] });
  });
});
