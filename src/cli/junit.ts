import type { RunReport } from '../core/index.ts';

/**
 * A run as JUnit XML, so a CI pipeline shows it like a test suite: one test case per dialogue,
 * a failure for a dialogue that broke a policy, an error for one that ended for an outside reason.
 */
export function junitOf(report: RunReport, project: string): string {
  const cases = report.dialogues.map((d) => {
    const name = `name="${xml(d.dialogue)}" classname="${xml(`${project}.${d.scenario}`)}"`;
    // The judge's opinion rides along as output, labelled, never as the case's outcome.
    // So do refused attempts a rule only notes: shown, never the case's outcome.
    const said = [
      ...d.noted.map(
        (b) =>
          `Tried, refused (noted, not failing): ${b.policy ?? b.id}${b.turnLabel === undefined ? '' : ` (${b.turnLabel})`}: ${b.detail}`,
      ),
      ...d.judgeFailed.map((f) => `The judge failed on ${f.policy}: ${f.error}`),
      ...d.judgeViolations.map(
        (j) =>
          `Judge's opinion (not a verdict): ${j.policy} violated${j.turnLabel === undefined ? '' : ` in ${j.turnLabel}`}: ${j.reason}`,
      ),
    ];
    const opinion =
      said.length === 0 ? '' : `\n      <system-out>${xml(said.join('\n'))}</system-out>`;
    if (d.verdict === 'fail') {
      const breaches = d.breaches
        .map(
          (b) =>
            `${b.policy ?? b.id}${b.turnLabel === undefined ? '' : ` (${b.turnLabel})`}${b.attempt ? ' (tried, refused)' : ''}${b.source === 'judge' ? ' (decided by a model)' : ''}: ${b.detail}`,
        )
        .join('\n');
      const first = d.breaches[0];
      const message = first
        ? first.policy === undefined
          ? `failed (unattributed: ${first.source === 'ending' ? 'its own broken output' : first.id})`
          : `broke ${first.policy}${first.source === 'judge' ? ' (decided by a model)' : ''}`
        : 'failed';
      return `    <testcase ${name}>\n      <failure message="${xml(message)}">${xml(breaches)}</failure>${opinion}\n    </testcase>`;
    }
    if (d.verdict === 'suspect') {
      const why = `simulator suspect, awaiting review: ${d.suspect.join(' ')}`;
      return `    <testcase ${name}>\n      <skipped message="${xml(why)}"/>\n    </testcase>`;
    }
    if (d.verdict === 'error' || d.verdict === 'running') {
      const reason = d.errorReason ?? 'unfinished';
      const detail = d.errorReason === d.ending ? d.endingDetail : d.scenarioFaults.join(' ');
      return `    <testcase ${name}>\n      <error message="${xml(reason)}">${xml(detail)}</error>\n    </testcase>`;
    }
    return opinion === ''
      ? `    <testcase ${name}/>`
      : `    <testcase ${name}>${opinion}\n    </testcase>`;
  });
  const failures = report.dialogues.filter((d) => d.verdict === 'fail').length;
  const errors = report.dialogues.filter(
    (d) => d.verdict === 'error' || d.verdict === 'running',
  ).length;
  const skipped = report.suspect;
  const seconds = (report.wallMs / 1000).toFixed(3);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="policylab" tests="${report.dialogues.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds}">
  <testsuite name="${xml(project)}" tests="${report.dialogues.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds}">
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}

/** Text made safe for XML attributes and content, control characters dropped. */
function xml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters outright.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}
