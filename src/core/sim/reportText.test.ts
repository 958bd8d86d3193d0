import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Draft } from '../testing/reportLogs.ts';
import { broke, dialogue, ok, POLICIES, scenario, stamp, start } from '../testing/reportLogs.ts';
import { compareRuns } from './compare.ts';
import { reportOf } from './report.ts';
import { comparisonMarkdown, csvField, reportCsv, reportMarkdown } from './reportText.ts';

/** Three dialogues on privacy: a pass, a failure, a provider error; models named. */
function log(outcomes: readonly ('pass' | 'fail' | 'error')[], user = 'sim-user'): Draft[] {
  const drafts: Draft[] = [
    { ...start, trials: 1, models: { agent: 'gpt-x', user, judge: 'judge-m' } },
  ];
  outcomes.forEach((_, i) => drafts.push(scenario(`s${i}`, ['privacy'], 4)));
  outcomes.forEach((o, i) =>
    drafts.push(
      ...dialogue(`s${i}#1`, `s${i}`, 0, {
        end: o === 'error' ? 'provider-error' : 'user-done',
        findings: o === 'pass' ? [ok('c', 'privacy')] : o === 'fail' ? [broke('c', 'privacy')] : [],
      }),
    ),
  );
  return drafts;
}

/** A minimal CSV reader for the tests: RFC 4180 quoting. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

describe('reportMarkdown', () => {
  it('states the pass rate with its interval and the simulated user’s model beside it', () => {
    const md = reportMarkdown(reportOf(stamp(log(['pass', 'fail', 'error'])), POLICIES), 'Run 1');
    expect(md).toContain(
      '**50.0%** (95% Wilson interval 9.5%–90.5%): 1 passed, 1 failed, 1 errors',
    );
    expect(md).toContain('Simulated user: sim-user');
    expect(md).toContain('| privacy | privacy | 50.0% | 9.5%–90.5% | 1 | 1 | 0 |');
    expect(md).toContain('| provider error | 1 |');
  });

  it('marks the spending figures that rest on estimated token counts, and says why', () => {
    const usage = (role: 'agent' | 'user', estimated?: string): Draft => ({
      type: 'usage',
      dialogue: 's0#1',
      role,
      model: role === 'agent' ? 'gpt-x' : 'sim-user',
      inputTokens: 100,
      outputTokens: 20,
      cost: 0.5,
      ms: 10,
      ...(estimated !== undefined && { estimated }),
    });
    const honest = reportMarkdown(
      reportOf(stamp([...log(['pass']), usage('agent'), usage('user')]), POLICIES),
      'Run',
    );
    expect(honest).toContain('| agent | 1 | 0 | 100 | 20 | $0.5000 |');
    expect(honest).not.toContain('≈');
    const md = reportMarkdown(
      reportOf(
        stamp([
          ...log(['pass']),
          usage('agent', 'The provider reported no token counts.'),
          usage('user'),
        ]),
        POLICIES,
      ),
      'Run',
    );
    expect(md).toContain('| agent | 1 | 0 | ≈100 | ≈20 | ≈$0.5000 |');
    expect(md).toContain('| user | 1 | 0 | 100 | 20 | $0.5000 |');
    expect(md).toContain(
      "≈ The provider's token counts of 1 call could not be true or were missing: estimated from characters.",
    );
  });

  it('keeps hostile ids and model names from changing the document', () => {
    const md = reportMarkdown(
      reportOf(stamp(log(['pass'], '<img src=x onerror=alert(1)> | evil')), POLICIES),
      '# Title [x](javascript:alert(1))',
    );
    expect(md).toContain('\\<img src=x onerror=alert(1)\\> \\| evil');
    expect(md).not.toMatch(/(^|[^\\])</m);
    expect(md.split('\n')[0]).toBe('# \\# Title \\[x\\](javascript:alert(1))');
  });
});

describe('CSV', () => {
  it('round-trips any text, and defuses what a spreadsheet would run as a formula', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const [read] = readCsv(`${csvField(text)}\r\n`);
        const expected = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
        expect(read).toEqual([expected]);
      }),
    );
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField(-0.5)).toBe('-0.5');
  });

  it('has one row per level, category and policy, with rates as fractions', () => {
    const report = reportOf(stamp(log(['pass', 'fail', 'pass'])), POLICIES);
    const rows = readCsv(reportCsv(report));
    expect(rows[0]).toEqual([
      'section',
      'key',
      'passes',
      'fails',
      'rate',
      'low',
      'high',
      'not_checked',
    ]);
    expect(rows.map((r) => `${r[0]}:${r[1]}`)).toEqual([
      'section:key',
      'overall:run',
      'level:4',
      'category:privacy',
      'policy:privacy',
    ]);
    expect(Number(rows[1]?.[4])).toBeCloseTo(2 / 3, 12);
  });
});

describe('comparisonMarkdown', () => {
  it('lists the flipped scenarios under their direction', () => {
    const c = compareRuns(
      reportOf(stamp(log(['pass', 'fail', 'pass'])), POLICIES),
      reportOf(stamp(log(['fail', 'pass', 'pass'], 'other-user')), POLICIES),
    );
    const md = comparisonMarkdown(c, 'monday', 'tuesday');
    expect(md).toContain('Models changed: user: sim-user → other-user.');
    expect(md).toContain(
      '## Passed before, failed after (1)\n\n- s0, trial 1: s0\\#1 pass → s0\\#1 fail',
    );
    expect(md).toContain(
      '## Failed before, passed after (1)\n\n- s1, trial 1: s1\\#1 fail → s1\\#1 pass',
    );
    expect(md).toContain('| overall | 66.7% (2/3) | 66.7% (2/3) | +0.0 pts');
  });
});
