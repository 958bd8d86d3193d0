import { describe, expect, it } from 'vitest';
import { corpusDomains, findingsOf, playScripted } from '../../test/corpus.ts';

/*
 * The verdict corpus (issue 30): dialogues on domains written for it, each with the findings a
 * careful reader gives it, written before the code. Every one must come out exactly so: the
 * verdict, and every finding with its policy, kind and reply; nothing more (no false alarm).
 */

const DOMAINS = corpusDomains();

describe('the verdict corpus', () => {
  it('holds at least 40 dialogues on three domains', () => {
    expect(DOMAINS.length).toBeGreaterThanOrEqual(3);
    expect(DOMAINS.flatMap((d) => d.dialogues).length).toBeGreaterThanOrEqual(40);
  });

  it('covers every kind of finding and mechanism, with compliant runs beside them', () => {
    const all = DOMAINS.flatMap((d) => d.dialogues);
    const states = new Set(all.flatMap((d) => d.findings.map((f) => f.split(' ')[1])));
    expect([...states].sort()).toEqual([
      'attempt',
      'broken',
      'decided',
      'judge-failed',
      'noted',
      'unclear',
    ]);
    const mechanisms = new Set(all.flatMap((d) => d.covers));
    for (const m of [
      'attempts',
      'confirmations',
      'checks',
      'grounded',
      'silent-call',
      'wait-for-result',
      'transfer',
      'judge',
      'simulator',
      'own-agent',
      'compliant',
    ])
      expect(mechanisms.has(m), m).toBe(true);
    // Each domain has runs where the agent keeps every policy: no false alarm there.
    for (const domain of DOMAINS)
      expect(
        domain.dialogues.some((d) => d.covers.includes('compliant') && d.findings.length === 0),
        domain.name,
      ).toBe(true);
  });

  for (const domain of DOMAINS)
    describe(domain.name, () => {
      for (const dialogue of domain.dialogues)
        it(dialogue.id, async () => {
          const { played, events, asked, report } = await playScripted(domain, dialogue);
          if (dialogue.judgeSpread)
            expect(report.judgeOpinion.spread).toEqual(dialogue.judgeSpread);
          if (dialogue.judgeAsked) expect(new Set(asked)).toEqual(new Set(dialogue.judgeAsked));
          expect({ verdict: played.verdict, findings: findingsOf(played, events) }).toEqual({
            verdict: dialogue.verdict,
            findings: [...dialogue.findings].sort(),
          });
        });
    });
});
