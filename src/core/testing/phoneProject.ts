import type { Project, ProjectFileName } from '../project.ts';

/**
 * A tiny dual-control project for tests: a mobile carrier's support desk (the agent's `lines`
 * table and tools) and the customer's own phone (the user's `phone` table and tools: the status
 * bar, mobile data, airplane mode, a speed test). Every file valid, every reference resolved.
 */
export const PHONE_FILES: Readonly<Record<ProjectFileName, string>> = {
  'agent.md': `# Mobile support

- Look up the customer's line before advising them.
- Never change the customer's phone yourself: tell them what to tap.
`,
  'policies.yaml': `policies:
  - id: look-up-line
    text: Look up the customer's line before advising them.
    category: identity
    challenge: 1
    tools: [get_line]
  - id: user-acts
    text: Never change the customer's phone yourself; tell them what to tap.
    category: dual-control
    challenge: 2
`,
  'tools.yaml': `tools:
  - name: get_line
    description: Look up a phone line by its number.
    kind: read
    parameters:
      type: object
      properties:
        number: { type: string }
      required: [number]
    returns: db.lines.filter(l, l.number == args.number)
  - name: check_status_bar
    side: user
    description: Look at the phone's status bar.
    kind: read
    parameters: { type: object }
    returns: db.phone
  - name: toggle_data
    side: user
    description: Turn mobile data on or off.
    kind: write
    parameters:
      type: object
      properties:
        on: { type: boolean }
      required: [on]
    effects:
      - update: phone
        where: row.id == "phone"
        set: { data_on: args.on }
  - name: toggle_airplane_mode
    side: user
    description: Turn airplane mode on or off.
    kind: write
    parameters:
      type: object
      properties:
        on: { type: boolean }
      required: [on]
    effects:
      - update: phone
        where: row.id == "phone"
        set: { airplane: args.on }
  - name: run_speed_test
    side: user
    description: Run a speed test on the phone.
    kind: read
    parameters: { type: object }
    returns: 'db.phone.exists(p, p.data_on && !p.airplane) ? "excellent" : "no connection"'
`,
  'database.yaml': `tables:
  - name: lines
    key: number
    columns:
      number: { type: string }
      plan: { type: string }
      suspended: { type: boolean }
    rows:
      - { number: "555-0100", plan: unlimited, suspended: false }
  - name: phone
    side: user
    key: id
    columns:
      id: { type: string }
      data_on: { type: boolean }
      airplane: { type: boolean }
    rows:
      - { id: phone, data_on: true, airplane: false }
`,
  'rules.yaml': `guards: {}
checks: []
`,
  'scenarios.yaml': `scenarios:
  - id: no-data
    policies: [user-acts]
    goal: Get mobile internet working again on your phone (number 555-0100).
    initialization:
      - { tool: toggle_data, args: { on: false } }
    message_history:
      - { role: user, content: My internet stopped working. }
      - { role: assistant, content: Sorry to hear that. What is your number? }
    expected:
      required_actions:
        - { tool: toggle_data, args: { on: true }, requestor: user }
      user_assertions:
        - db.phone.exists(p, p.data_on && !p.airplane)
`,
};

/** The phone project with some files replaced. */
export function phoneProject(changes: Partial<Record<ProjectFileName, string>> = {}): Project {
  return { name: 'Phone', files: { ...PHONE_FILES, ...changes } };
}

/** The phone project with one occurrence of `from` replaced by `to` in one file. */
export function phoneWith(file: ProjectFileName, from: string, to: string): Project {
  const text = PHONE_FILES[file];
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  return phoneProject({ [file]: text.replace(from, to) });
}
