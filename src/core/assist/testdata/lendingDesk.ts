import type { Project } from '../../project.ts';

/**
 * A small library lending desk for the assist tests: a loan tool with an integer, an enum and a
 * boolean argument, a member table, policies that a guard can enforce and some that it cannot.
 */
export function lendingDesk(rules = 'guards: {}\n'): Project {
  return {
    name: 'Lending desk',
    files: {
      'agent.md': '# Lending desk\n\nLend books to members.\n',
      'policies.yaml': `policies:
  - id: loan-length
    text: Loans must be at most 21 days long.
    category: loans
    challenge: 2
    tools: [lend_book]
  - id: no-lending-when-blocked
    text: Never lend to a member who is blocked.
    category: loans
    challenge: 3
    tools: [lend_book, get_member]
  - id: greet
    text: Greet the member by name.
    category: manners
    challenge: 1
  - id: friendly-lookups
    text: Be friendly while looking things up.
    category: manners
    challenge: 1
    tools: [get_member]
  - id: ghost-tool
    text: Never call the archive more than once.
    category: loans
    challenge: 1
    tools: [open_archive]
`,
      'tools.yaml': `tools:
  - name: get_member
    description: Look up a member.
    kind: read
    parameters:
      type: object
      properties:
        member_id: { type: string }
      required: [member_id]
  - name: lend_book
    description: Lend a book to a member.
    kind: write
    parameters:
      type: object
      properties:
        member_id: { type: string }
        days: { type: integer, minimum: 1, maximum: 60 }
        format: { type: string, enum: [paper, ebook, audio] }
        renewal: { type: boolean }
      required: [member_id, days]
    effects:
      - insert: loans
        values: { member_id: args.member_id, days: args.days }
`,
      'database.yaml': `tables:
  - name: members
    key: id
    columns:
      id: { type: string }
      blocked: { type: boolean }
    rows:
      - { id: m1, blocked: false }
      - { id: m2, blocked: true }
  - name: loans
    key: id
    columns:
      id: { type: string, generated: { prefix: L, digits: 3 } }
      member_id: { type: string, references: members }
      days: { type: integer }
    rows: []
`,
      'rules.yaml': rules,
      'scenarios.yaml': 'scenarios: []\n',
    },
  };
}
