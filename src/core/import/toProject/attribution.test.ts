import { describe, expect, it } from 'vitest';
import { attributed, preconditionPolicies } from './attribution.ts';

// A small clinic desk, in no one's shape but its own: lookups, two changes, four policies.
const policies = [
  { id: 'verify-patient', text: 'Verify the patient by their date of birth before anything else.' },
  {
    id: 'reschedule-window',
    text: 'Appointments may be moved only up to 24 hours before they start.',
  },
  {
    id: 'share-records',
    text: 'Provide the patient with information about their own visits only.',
  },
  {
    id: 'no-prescriptions',
    text: 'Never renew a prescription; refer the patient to their doctor.',
  },
];
const reads = new Set(['find_patient', 'get_visit']);
const run = {
  end: undefined,
  answers: [
    { tool: 'find_patient', answer: '{"id":"P-17","name":"Ida"}' },
    { tool: 'get_visit', answer: '{"visit":"V-204","fee":1250.5}' },
    { tool: 'move_visit', answer: '{"ok":true}' },
  ],
};

function scenario(expected: Record<string, unknown>, inPlay: string[]) {
  return { id: 't', policies: inPlay, expected };
}

describe('attributed: every expectation of an imported scenario names a policy', () => {
  const base = {
    required_actions: [
      { tool: 'find_patient', policy: 'verify-patient' },
      'get_visit',
      { tool: 'move_visit', policy: 'reschedule-window' },
    ],
  };

  it('charges a lookup no policy governs to the step it serves, and leaves changes alone', () => {
    const out = attributed(
      scenario({ required_actions: [...base.required_actions, 'cancel_visit'] }, [
        'verify-patient',
        'reschedule-window',
      ]),
      run,
      { policies, reads },
    );
    expect((out.expected as Record<string, unknown>).required_actions).toEqual([
      { tool: 'find_patient', policy: 'verify-patient' },
      { tool: 'get_visit', policy: 'reschedule-window' },
      { tool: 'move_visit', policy: 'reschedule-window' },
      // A change no policy governs is charged to none: the import report names the tool.
      'cancel_visit',
    ]);
  });

  it('charges what the agent must tell to the policy on giving information, else to the answer', () => {
    const out = attributed(
      scenario(
        {
          ...base,
          must_say: ['1,250.50', 'V-204'],
          assertions: [
            'Agent should tell the patient the fee is $1,250.50.',
            'Agent should move the appointment by no more than 24 hours.',
            'Agent should not renew the prescription.',
          ],
        },
        ['verify-patient', 'reschedule-window'],
      ),
      run,
      { policies, reads },
    );
    const expected = out.expected as Record<string, unknown>;
    expect(expected.must_say).toEqual([
      { phrase: '1,250.50', policy: 'share-records' },
      { phrase: 'V-204', policy: 'share-records' },
    ]);
    expect(expected.assertions).toEqual([
      { assertion: 'Agent should tell the patient the fee is $1,250.50.', policy: 'share-records' },
      {
        assertion: 'Agent should move the appointment by no more than 24 hours.',
        policy: 'reschedule-window',
      },
      { assertion: 'Agent should not renew the prescription.', policy: 'no-prescriptions' },
    ]);
    // The policies named are put in play, after those already there.
    expect(out.policies).toEqual([
      'verify-patient',
      'reschedule-window',
      'share-records',
      'no-prescriptions',
    ]);
  });

  it('without a policy on giving information, charges a fact to the step whose answer holds it', () => {
    const others = policies.filter((p) => p.id !== 'share-records');
    const out = attributed(
      scenario({ ...base, must_say: ['1250.50', 'P-17', 'a word in no answer'] }, []),
      run,
      { policies: others, reads },
    );
    expect((out.expected as Record<string, unknown>).must_say).toEqual([
      // The fee is in get_visit's answer; get_visit serves the move, so the move's policy.
      { phrase: '1250.50', policy: 'reschedule-window' },
      { phrase: 'P-17', policy: 'verify-patient' },
      // In no answer and in no policy's words: the policy of the task's last change.
      { phrase: 'a word in no answer', policy: 'reschedule-window' },
    ]);
  });

  it('gives a scenario with no steps the policy its other expectations named', () => {
    const out = attributed(
      scenario(
        { assertions: ['Agent should not renew the prescription.', 'Agent is polite.'] },
        [],
      ),
      undefined,
      { policies, reads },
    );
    expect((out.expected as Record<string, unknown>).assertions).toEqual([
      { assertion: 'Agent should not renew the prescription.', policy: 'no-prescriptions' },
      { assertion: 'Agent is polite.', policy: 'no-prescriptions' },
    ]);
    expect(out.policies).toEqual(['no-prescriptions']);
    // Nothing to go by at all: left as it was, never a made-up policy.
    const bare = scenario({ assertions: ['Agent is polite.'] }, []);
    expect(attributed(bare, undefined, { policies, reads })).toEqual(bare);
  });
});

describe('preconditionPolicies', () => {
  const tools = [
    {
      name: 'move_visit',
      requires: [
        {
          condition: 'db.visits.exists(v, v.id == args.visit_id)',
          error: 'The appointment starting then was not found',
        },
        {
          condition: 'db.visits.exists(v, v.id == args.visit_id && v.hours_away >= 24)',
          error: 'Appointments cannot be moved within 24 hours of the start',
        },
        {
          condition: 'args.reason != ""',
          error: 'A reason is required',
          not_imported: true as const,
        },
      ],
    },
    {
      name: 'renew_prescription',
      requires: [
        {
          condition: 'db.scripts.exists(s, s.id == args.id && s.kind != "renew prescription")',
          error: 'This request is refused here',
        },
        { condition: 'size(args.id) > 0', error: 'Something went wrong' },
      ],
    },
    { name: 'find_patient' },
  ];
  const linked = (tool: string) =>
    tool === 'move_visit'
      ? ['reschedule-window']
      : tool === 'renew_prescription'
        ? ['no-prescriptions']
        : [];

  it('names the policy a failure encodes, and leaves lookups and loose failures alone', () => {
    const named = preconditionPolicies(tools, policies, linked);
    expect(
      named.map((t) => (t.requires ?? []).map((r) => ('policy' in r ? r.policy : '-'))),
    ).toEqual([
      // A lookup that comes up empty, the window, a path not imported.
      ['-', 'reschedule-window', '-'],
      // Its words and the value its condition tests name the policy; "went wrong" names none.
      ['no-prescriptions', '-'],
      [],
    ]);
    // The source grades outcomes: a refused attempt is shown, not failing.
    expect(named[0]?.requires?.[1]).toMatchObject({ attempt: 'noted' });
    // A tool without preconditions is passed through untouched.
    expect(named[2]).toBe(tools[2]);
  });
});
