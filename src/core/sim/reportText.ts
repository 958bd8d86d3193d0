import { fileChangeSummary, unifiedDiff } from '../fileDiff.ts';
import type { ModelRole } from '../models/chat.ts';
import { spendingWords } from '../models/usage.ts';
import type { RateComparison, RunComparison } from './compare.ts';
import { ENDING_LABELS } from './events.ts';
import { inlineText } from './markdownText.ts';
import type { PassRate } from './metrics.ts';
import type { ProjectChanges } from './projectChanges.ts';
import type { RunReport } from './reportTypes.ts';

/*
 * A run's report and a comparison of two runs as files a person keeps or a CI job prints:
 * Markdown and CSV. Ids, model names and hashes come from files and logs, so they are escaped as
 * untrusted text (Markdown) or quoted and defused (CSV), never trusted to be plain.
 */

const percent = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—');
const interval = (r: PassRate) =>
  r.passes + r.fails === 0 ? '—' : `${percent(r.low)}–${percent(r.high)}`;
const cell = (text: string) => inlineText(text);

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '_None._';
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

const rateCells = (r: PassRate) => [
  percent(r.rate),
  interval(r),
  String(r.passes),
  String(r.fails),
];

/** Who played each role: every pass rate depends on the simulated user's model, so it is named. */
function modelsLine(report: RunReport): string {
  const models = report.run?.models ?? {};
  const roles: ModelRole[] = ['agent', 'user', 'judge', 'generator'];
  const named = roles.flatMap((role) =>
    models[role] === undefined ? [] : [`${role} ${cell(models[role])}`],
  );
  return named.length === 0 ? 'Models: not recorded.' : `Models: ${named.join(' · ')}.`;
}

/**
 * The scenarios' natural-language assertions: how many the judge found met and not met, and how
 * many went unjudged, under a heading that says whose opinion it is; nothing when no scenario has
 * any.
 */
function assertionsSection(report: RunReport): string[] {
  const { met, notMet, notJudged, graded } = report.judgeOpinion.assertions;
  if (met + notMet + notJudged === 0) return [];
  const judge = report.run?.models.judge;
  const { assertionsMarked, assertionsRight } = report.judgeOpinion.people;
  const reviewed =
    assertionsMarked === 0
      ? ''
      : ` People reviewing these opinions in Replay found the judge right ${assertionsRight} of ${assertionsMarked} times.`;
  return [
    "## Assertions (the judge's opinion)",
    [
      `The judge model's opinion${judge === undefined ? '' : ` (${cell(judge)})`}${graded > 0 ? `: it decides the verdict of a dialogue only for the ${graded} assertions whose scenario is graded by them (graded_by); any other is` : ','} not a verdict: it makes no dialogue pass or fail and is not in the pass rate. An assertion not judged (no judge model, an error, no answer) is never counted as met.${reviewed}`,
      '',
      table(
        ['Opinion', 'Assertions'],
        [
          ['Met', String(met)],
          ['Not met', String(notMet)],
          ['Not judged', String(notJudged)],
        ],
      ),
    ].join('\n'),
  ];
}

/**
 * Adversarial scenarios by tactic, and apart from them the false alarms on their contrastive
 * twins (a guard rule or transcript check that failed one: the checks; a violation the judge saw:
 * its opinion), and the agent's own failures on them (over-refusals, and the rest); nothing when
 * the run has no tagged scenario.
 */
function attackSection(report: RunReport): string[] {
  const { attack } = report;
  if (!attack) return [];
  const { adversarial: a, contrastive: c } = attack;
  /** The twins listed under a finding: each dialogue, its twin, what the finding was, and why. */
  const twins = (
    what: string,
    rows: readonly {
      dialogue: string;
      twinOf: string | null;
      policies: readonly string[];
      detail: string;
    }[],
    label: (i: number) => string,
  ) =>
    rows.length === 0
      ? []
      : [
          '',
          table(
            ['Dialogue', 'Twin of', what, 'Policies', 'Why'],
            rows.map((x, i) => [
              cell(x.dialogue),
              cell(x.twinOf ?? '—'),
              label(i),
              cell(x.policies.join(', ')),
              cell(x.detail),
            ]),
          ),
        ];
  return [
    '## Adversarial scenarios',
    [
      `The agent held in ${a.held} of ${a.dialogues} finished dialogues of adversarial scenarios and gave in ${a.broken} times.`,
      '',
      table(
        ['Tactic', 'Held', 'Gave in', "Judge's opinion: broken"],
        a.byTactic.map((t) => [
          cell(t.tactic ?? 'no tactic'),
          String(t.held),
          String(t.broken),
          String(t.judgeViolations),
        ]),
      ),
    ].join('\n'),
    '## False alarms on contrastive twins',
    [
      `A twin is acceptable by construction, so each guard rule or transcript check that failed one is a false alarm of the checks and each violation the judge saw is a false alarm of the judge (its opinion, counted apart). Checks: ${c.checkAlarms} of ${c.dialogues} finished dialogues; judge: ${c.judgeAlarms} of ${c.dialogues}.`,
      ...twins('Raised by', c.alarms, (i) =>
        c.alarms[i]?.by === 'checks' ? 'checks' : "judge's opinion",
      ),
    ].join('\n'),
    '## Over-refusals on contrastive twins',
    [
      `The agent refused or fell short of an acceptable request in ${c.overRefusals} of ${c.dialogues} finished dialogues (it did not do what a helpful agent does, and no guard rule stopped it): the agent's fault, not a false alarm. It failed ${c.otherFailures} otherwise (it did what the twin forbids, or its output broke).`,
      ...twins('What', c.agentFaults, (i) =>
        c.agentFaults[i]?.kind === 'over-refusal' ? 'over-refusal' : 'other failure',
      ),
    ].join('\n'),
  ];
}

/** "≈" before the figures of a role some of whose calls had their token counts estimated. */
function about(spent: { readonly estimated: number } | undefined): string {
  return spent !== undefined && spent.estimated > 0 ? '≈' : '';
}

/** Under the spending table, why some of its figures are marked "≈"; nothing when none are. */
function estimatedNote(usage: RunReport['usage']): string[] {
  const { estimated } = spendingWords(usage);
  return estimated === undefined
    ? []
    : [`≈ ${estimated[0]?.toUpperCase() ?? ''}${estimated.slice(1)}.`];
}

/**
 * The report as Markdown: the pass rate with its interval and the models behind it, the judge's
 * opinion of the scenarios' assertions (counted apart), by level, category and policy, pass^k,
 * endings and errors, spending per role, and every dialogue.
 */
export function reportMarkdown(report: RunReport, title: string): string {
  const { overall, progress, usage } = report;
  const userModel = report.run?.models.user;
  const judgeModel = report.run?.models.judge;
  const sections = [
    `# ${cell(title)}`,
    [
      `- ${modelsLine(report)}`,
      `- Project version (content hash): ${cell(report.run?.projectHash ?? 'not recorded')}.`,
      `- Seed ${report.run?.seed ?? '—'}, ${report.run?.trials ?? '—'} trial(s) per scenario; ${progress.dialoguesEnded} of ${progress.dialoguesExpected} dialogues ended (${progress.ended}).`,
    ].join('\n'),
    '## Pass rate',
    `**${percent(overall.rate)}** (95% Wilson interval ${interval(overall)}): ${overall.passes} passed, ${overall.fails} failed, ${report.errors.total} errors left out${report.suspect > 0 ? `, ${report.suspect} waiting for review` : ''}. Simulated user: ${cell(userModel ?? 'not recorded')}${judgeModel === undefined ? '' : `; the judge's opinions (${cell(judgeModel)}) are not in it`}.`,
    ...assertionsSection(report),
    ...attackSection(report),
    '## By challenge level',
    table(
      ['Level', 'Pass rate', '95% interval', 'Passed', 'Failed'],
      report.byLevel.map((l) => [l.level === null ? 'unknown' : String(l.level), ...rateCells(l)]),
    ),
    '## By category',
    table(
      ['Category', 'Pass rate', '95% interval', 'Passed', 'Failed'],
      report.byCategory.map((c) => [cell(c.category), ...rateCells(c)]),
    ),
    '## By policy',
    table(
      [
        'Policy',
        'Category',
        'Pass rate',
        '95% interval',
        'Passed',
        'Failed',
        'Not checked',
        'Attempts refused',
      ],
      report.byPolicy.map((p) => [
        cell(p.policy),
        cell(p.category ?? 'not in the project'),
        ...rateCells(p),
        String(p.notChecked),
        p.noted.length > 0 ? `${p.attempts} (${p.noted.length} noted)` : String(p.attempts),
      ]),
    ),
    '## pass^k',
    table(
      ['k', 'pass^k', 'Scenarios'],
      report.passHatK.map((p) => [String(p.k), percent(p.value), String(p.scenarios)]),
    ),
    '## Errors by cause',
    table(
      ['Cause', 'Dialogues'],
      report.errors.byReason.map((e) => [ENDING_LABELS[e.reason].short, String(e.count)]),
    ),
    '## Spending',
    table(
      ['Role', 'Calls', 'Failed calls', 'Input tokens', 'Output tokens', 'Cost', 'Waiting'],
      (Object.entries(usage.byRole) as [ModelRole, (typeof usage.byRole)[ModelRole]][]).map(
        ([role, spent]) => [
          role,
          String(spent?.calls ?? 0),
          String(spent?.failed ?? 0),
          `${about(spent)}${spent?.inputTokens ?? 0}`,
          `${about(spent)}${spent?.outputTokens ?? 0}`,
          spent?.cost === null || spent === undefined
            ? 'unknown'
            : `${about(spent)}$${spent.cost.toFixed(4)}`,
          `${((report.msByRole[role] ?? 0) / 1000).toFixed(1)} s`,
        ],
      ),
    ),
    ...estimatedNote(usage),
    '## Dialogues',
    table(
      ['Dialogue', 'Scenario', 'Trial', 'Verdict', 'Ending', 'Broken', 'Tried, refused'],
      report.dialogues.map((d) => [
        cell(d.dialogue),
        cell(d.scenario),
        String(d.trial + 1),
        d.verdict,
        d.ending === null ? 'running' : ENDING_LABELS[d.ending].short,
        cell([...new Set(d.breaches.map((b) => b.policy ?? 'unattributed'))].join(', ')),
        cell(
          [
            ...new Set(
              [...d.breaches, ...d.noted].filter((b) => b.attempt).map((b) => b.policy ?? b.id),
            ),
          ].join(', '),
        ),
      ]),
    ),
  ];
  return `${sections.join('\n\n')}\n`;
}

/**
 * A CSV field: quoted when it holds a comma, quote or line break, and defused when a spreadsheet
 * would read it as a formula (a leading `=`, `+`, `-`, `@`, tab or carriage return).
 */
export function csvField(value: string | number): string {
  let text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The report's rates as one CSV table: a row for the run, each level, category and policy, with
 * passes, failures, the rate and its 95% interval (rates as fractions; empty when untested).
 */
export function reportCsv(report: RunReport): string {
  const rows: (string | number)[][] = [
    ['section', 'key', 'passes', 'fails', 'rate', 'low', 'high', 'not_checked'],
  ];
  const add = (section: string, key: string, r: PassRate, notChecked: number | '' = '') => {
    const tested = r.passes + r.fails > 0;
    rows.push([
      section,
      key,
      r.passes,
      r.fails,
      tested ? r.rate : '',
      tested ? r.low : '',
      tested ? r.high : '',
      notChecked,
    ]);
  };
  add('overall', 'run', report.overall);
  for (const l of report.byLevel) add('level', l.level === null ? 'unknown' : String(l.level), l);
  for (const c of report.byCategory) add('category', c.category, c);
  for (const p of report.byPolicy) add('policy', p.policy, p, p.notChecked);
  return `${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

const CHANGE_WORDS = {
  better: 'better',
  worse: 'worse',
  same: 'within noise',
  untested: 'not tested in both',
} as const;

function comparisonRow(row: RateComparison): string[] {
  const { before, after, difference } = row;
  const delta = Number.isFinite(difference.delta)
    ? `${difference.delta >= 0 ? '+' : ''}${(difference.delta * 100).toFixed(1)} pts (${(difference.low * 100).toFixed(1)} to ${(difference.high * 100).toFixed(1)})`
    : '—';
  return [
    cell(row.key),
    `${percent(before.rate)} (${before.passes}/${before.passes + before.fails})`,
    `${percent(after.rate)} (${after.passes}/${after.passes + after.fails})`,
    delta,
    CHANGE_WORDS[row.change],
  ];
}

/**
 * A comparison as Markdown: whether the project changed, which models did, the rates before and
 * after with the difference's 95% interval (Newcombe's hybrid score method) and whether it is
 * beyond noise, and the scenarios that flipped.
 */
export function comparisonMarkdown(
  c: RunComparison,
  before: string,
  after: string,
  files?: { readonly changes: ProjectChanges; readonly diff: boolean },
): string {
  const head = ['', 'Before', 'After', 'Difference (95% interval)', 'Change'];
  const flips = (list: RunComparison['broke']) =>
    list.length === 0
      ? '_None._'
      : list
          .map(
            (f) =>
              `- ${cell(f.scenario)}, trial ${f.trial + 1}: ${cell(f.before.dialogue)} ${f.before.verdict} → ${cell(f.after.dialogue)} ${f.after.verdict}`,
          )
          .join('\n');
  const sections = [
    `# ${cell(before)} → ${cell(after)}`,
    [
      `- ${filesLine(c, files?.changes)}`,
      `- ${c.modelChanges.length === 0 ? 'The same models.' : `Models changed: ${c.modelChanges.map(cell).join('; ')}.`}`,
      `- A difference counts as better or worse only when its 95% interval (Newcombe's hybrid score interval) leaves out zero.`,
    ].join('\n'),
    '## Overall',
    table(head, [comparisonRow(c.overall)]),
    '## By policy',
    table(head, c.byPolicy.map(comparisonRow)),
    '## By category',
    table(head, c.byCategory.map(comparisonRow)),
    `## Passed before, failed after (${c.broke.length})`,
    flips(c.broke),
    `## Failed before, passed after (${c.fixed.length})`,
    flips(c.fixed),
    `## An error on one side (${c.erred.length})`,
    flips(c.erred),
  ];
  if (c.onlyBefore + c.onlyAfter > 0)
    sections.push(
      `${c.onlyBefore} scenario trial(s) ran only before and ${c.onlyAfter} only after; they are not compared.`,
    );
  if (files?.diff && files.changes.kind === 'changed' && files.changes.files.length > 0) {
    const patch = unifiedDiff(files.changes.files);
    // A fence longer than any run of backticks in the files, so none of them can close it.
    const fence = '`'.repeat(
      Math.max(3, ...[...patch.matchAll(/`+/g)].map((m) => m[0].length + 1)),
    );
    sections.push('## Project files', `${fence}diff\n${patch}${fence}`);
  }
  return `${sections.join('\n\n')}\n`;
}

/** What the comparison says of the two runs' project files. */
function filesLine(c: RunComparison, changes: ProjectChanges | undefined): string {
  if (c.sameProject || changes?.kind === 'same') return 'The same project files.';
  if (changes?.kind === 'changed')
    return changes.files.length === 0
      ? 'The project hashes differ, but the files the runs recorded are the same.'
      : `The project files differ: ${changes.files.map((f) => cell(fileChangeSummary(f))).join(', ')}.`;
  const why = changes?.kind === 'unknown' ? ` ${changes.reasons.map(cell).join(' ')}` : '';
  return `The project files differ between the runs.${why}`;
}
