/**
 * JSON Schemas of the project's YAML files (docs/format.md). They check shape and types; the
 * references between files (a rule naming a policy, a row fitting its table) are checked in
 * `references.ts`, which can say more than a schema can.
 */

const POLICY_ID = { type: 'string', pattern: '^[a-z][a-z0-9_-]*$' } as const;
const NAME = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } as const;
const CEL = { type: 'string', minLength: 1 } as const;
const TEXT = { type: 'string', minLength: 1 } as const;

/** The expectation lists a scenario can be graded by (`graded_by:`), as scenarios.yaml names them. */
export const GRADED_EXPECTATIONS = [
  'database',
  'required_actions',
  'forbidden_actions',
  'must_say',
  'must_not_say',
  'assertions',
  'user_assertions',
  'end_state',
] as const;

/**
 * A scenario expectation: the value alone (`- get_user`), or a mapping that also names the
 * policy it holds the agent to (`- { tool: get_user, policy: verify-identity }`), so a failure
 * is charged to that policy. Written as one schema with both types, so an error reads plainly.
 */
function attributed(key: string, value: { readonly type: 'string' }) {
  return {
    ...value,
    type: ['string', 'object'],
    properties: { [key]: value, policy: POLICY_ID },
    required: [key],
    additionalProperties: false,
  } as const;
}

/**
 * A required action: a tool name, or a mapping that may also give the arguments it must be
 * called with (`args`) and which of them to compare (`compare_args`, as tau2-bench's).
 */
const REQUIRED_ACTION = {
  ...attributed('tool', NAME),
  properties: {
    tool: NAME,
    policy: POLICY_ID,
    args: { type: 'object' },
    compare_args: { type: 'array', items: { type: 'string' } },
    // Who must make the call (dual control): the agent (default) or the simulated user.
    requestor: { enum: ['agent', 'user'] },
  },
} as const;

/** Whose a tool or a table is (dual control): the agent's by default, or the user's. */
const SIDE = { enum: ['agent', 'user'] } as const;

export const POLICIES_SCHEMA = {
  $id: 'policylab:policies.yaml',
  type: 'object',
  additionalProperties: false,
  properties: {
    policies: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'text', 'category', 'challenge'],
        properties: {
          id: POLICY_ID,
          text: TEXT,
          category: TEXT,
          challenge: { type: 'integer', minimum: 1, maximum: 5 },
          tools: { type: 'array', items: NAME },
          source: {
            type: 'object',
            additionalProperties: false,
            required: ['line'],
            properties: {
              line: { type: 'integer', minimum: 1 },
              endLine: { type: 'integer', minimum: 1 },
            },
          },
          // The flows (sections of agent.md) that state the policy, one policy for all of them.
          flows: { type: 'array', items: TEXT },
          // decides: the judge model's opinion is its verdict when nothing deterministic covers it.
          judge: { enum: ['decides', 'opinion'] },
        },
      },
    },
    relations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['between', 'weight'],
        properties: {
          between: { type: 'array', items: POLICY_ID, minItems: 2, maxItems: 2 },
          weight: { type: 'number', minimum: 0, maximum: 10 },
          origin: { enum: ['manual', 'heuristic', 'model'] },
          reason: { type: 'string' },
        },
      },
    },
  },
} as const;

const COLUMN_VALUES = { type: 'object', additionalProperties: CEL } as const;

export const TOOLS_SCHEMA = {
  $id: 'policylab:tools.yaml',
  type: 'object',
  additionalProperties: false,
  properties: {
    tools: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'description', 'kind'],
        properties: {
          name: NAME,
          description: TEXT,
          kind: { enum: ['read', 'write'] },
          parameters: {
            type: 'object',
            required: ['type'],
            properties: {
              type: { const: 'object' },
              properties: { type: 'object', additionalProperties: { type: 'object' } },
              required: { type: 'array', items: { type: 'string' } },
            },
          },
          effects: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              minProperties: 1,
              properties: {
                select: NAME,
                insert: NAME,
                update: NAME,
                delete: NAME,
                where: CEL,
                set: COLUMN_VALUES,
                values: COLUMN_VALUES,
                for_each: CEL,
                as: NAME,
                when: CEL,
              },
            },
          },
          returns: CEL,
          // Why the tool's behaviour is missing (an importer could not carry it): a call is an error.
          not_imported: TEXT,
          side: SIDE,
          // Who runs it besides the models, who are then never offered it: `setup`, a scenario's
          // initialization only; `after_each_call`, the environment after every call.
          runs: { enum: ['setup', 'after_each_call'] },
          // What must hold for the tool to work, each with the error the agent is told.
          requires: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['condition', 'error'],
              // `not_imported: true`: where it does not hold, the tool does something an
              // importer could not carry; a call there is an error of the project.
              // `policy`: the policy the condition encodes, so a call it refuses is an attempt
              // at what that policy forbids; `attempt`: whether that fails the dialogue.
              properties: {
                condition: CEL,
                error: TEXT,
                not_imported: { type: 'boolean' },
                policy: POLICY_ID,
                attempt: { enum: ['fails', 'noted'] },
              },
            },
          },
        },
      },
    },
  },
} as const;

export const DATABASE_SCHEMA = {
  $id: 'policylab:database.yaml',
  type: 'object',
  additionalProperties: false,
  properties: {
    // The time the project's runs see as `now`, fixed (format/clock.ts checks it reads as one).
    now: TEXT,
    tables: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'key', 'columns'],
        properties: {
          name: NAME,
          key: NAME,
          description: TEXT,
          side: SIDE,
          columns: {
            type: 'object',
            minProperties: 1,
            propertyNames: NAME,
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              required: ['type'],
              properties: {
                type: { enum: ['string', 'integer', 'number', 'boolean', 'array', 'object'] },
                enum: { type: 'array', minItems: 1 },
                nullable: { type: 'boolean' },
                references: NAME,
                schema: { type: 'object' },
                generated: {
                  anyOf: [
                    { type: 'boolean' },
                    {
                      type: 'object',
                      additionalProperties: false,
                      properties: {
                        prefix: { type: 'string' },
                        digits: { type: 'integer', minimum: 1, maximum: 30 },
                      },
                    },
                  ],
                },
                format: { type: 'string' },
                description: { type: 'string' },
              },
            },
          },
          rows: { type: 'array', items: { type: 'object' } },
        },
      },
    },
  },
} as const;

const GUARD_RULE = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'policy', 'decision'],
  properties: {
    id: POLICY_ID,
    policy: POLICY_ID,
    decision: { enum: ['allow', 'forbid'] },
    when: CEL,
    fallback: { enum: ['message', 'end', 'ask_user'] },
    message: TEXT,
    if_missing: { enum: ['forbid', 'skip'] },
    // What a call the rule refuses counts for: it fails the dialogue, or is only noted.
    attempt: { enum: ['fails', 'noted'] },
  },
} as const;

export const CHECK_KINDS = [
  'must_say',
  'must_not_say',
  'tool_order',
  'confirm_before',
  'never_call',
  'max_calls',
  'max_calls_per_turn',
  'say_before_call',
  'grounded',
  'silent_call',
  'wait_for_result',
  'transfer_only_when',
] as const;

/** What each kind of check verifies, in the fields it reads; the editor shows it on completion. */
export const CHECK_KIND_HELP: Record<(typeof CHECK_KINDS)[number], string> = {
  must_say: 'Some agent message matches `pattern` (a regular expression).',
  must_not_say: 'No agent message matches `pattern` (a regular expression).',
  tool_order: 'An allowed call to `first` comes before any call to `then`.',
  confirm_before:
    'The user says yes (not a question or a condition) before each call to `tool`; one yes covers the writes the agent listed (`covers: listed`), one `turn`’s, or `each` one alone.',
  never_call: 'The agent never calls `tool`.',
  max_calls: 'The agent calls `tool` at most `max` times in the dialogue.',
  max_calls_per_turn:
    'No agent turn makes more than `max` tool calls (only calls to `tool`, when given).',
  say_before_call:
    'Before each call to `tool`, an agent message (or the calling turn) matches `pattern`.',
  grounded:
    'Every amount, id, date and number the agent states (or those `facts` lists) comes from a tool result, the user, its prompt or the scenario before it; "1,628" is 1628.',
  silent_call:
    'A reply that calls `tool` (any tool when none is given) says nothing to the user: words and a call never come in one answer.',
  wait_for_result:
    'A reply that calls `tool` (any when none is given) does not claim its outcome (`pattern`, a claim such as "done" or "cancelled" by default) before the result is back.',
  transfer_only_when:
    'Each call to `tool` (a transfer) comes after a message matching `pattern` (the user asking for a person, the agent saying what it may not do), or, with `after_refusal: true`, after a refused attempt.',
};

export const RULES_SCHEMA = {
  $id: 'policylab:rules.yaml',
  type: 'object',
  additionalProperties: false,
  properties: {
    guards: {
      type: 'object',
      propertyNames: NAME,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          default: { enum: ['allow', 'deny'] },
          rules: { type: 'array', items: GUARD_RULE },
        },
      },
    },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'policy', 'kind'],
        properties: {
          id: POLICY_ID,
          policy: POLICY_ID,
          kind: { enum: CHECK_KINDS },
          pattern: TEXT,
          tool: NAME,
          first: NAME,
          then: NAME,
          max: { type: 'integer', minimum: 0 },
          // confirm_before: which writes one yes licenses.
          covers: { enum: ['each', 'turn', 'listed'] },
          // grounded: which kinds of fact must come from a source.
          facts: {
            type: 'array',
            items: { enum: ['amounts', 'ids', 'dates', 'numbers'] },
            uniqueItems: true,
          },
          // transfer_only_when: a refused attempt also permits the transfer.
          after_refusal: { type: 'boolean' },
        },
      },
    },
  },
} as const;

export const SCENARIOS_SCHEMA = {
  $id: 'policylab:scenarios.yaml',
  type: 'object',
  additionalProperties: false,
  properties: {
    scenarios: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'goal'],
        properties: {
          id: POLICY_ID,
          // Optional, and may be empty: tau2-bench's tasks name no policy and no persona.
          policies: { type: 'array', items: POLICY_ID },
          persona: TEXT,
          goal: TEXT,
          knows: { type: 'array', items: { type: 'string' } },
          unknown: { type: 'array', items: { type: 'string' } },
          rows: {
            type: 'object',
            propertyNames: NAME,
            additionalProperties: { type: 'array', items: { type: 'object' } },
          },
          expected: {
            type: 'object',
            additionalProperties: false,
            properties: {
              database: { type: 'array', items: attributed('assert', CEL) },
              required_actions: { type: 'array', items: REQUIRED_ACTION },
              forbidden_actions: { type: 'array', items: attributed('tool', NAME) },
              must_say: { type: 'array', items: attributed('phrase', TEXT) },
              must_not_say: { type: 'array', items: attributed('phrase', TEXT) },
              assertions: { type: 'array', items: attributed('assertion', TEXT) },
              user_assertions: { type: 'array', items: attributed('assert', CEL) },
              // table → row key → the row's fields at the end (null: the row is gone).
              end_state: {
                type: 'object',
                propertyNames: NAME,
                additionalProperties: {
                  type: 'object',
                  additionalProperties: { type: ['object', 'null'] },
                },
              },
              // What an importer could not carry: shown as not checked, never as held.
              not_checked: { type: 'array', items: TEXT },
              // The expectations that decide the verdict (tau2-bench's reward_basis).
              graded_by: {
                type: 'array',
                uniqueItems: true,
                items: { enum: [...GRADED_EXPECTATIONS] },
              },
            },
          },
          // Dual control: tool calls run before the dialogue, and the turns it starts from.
          initialization: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['tool'],
              properties: { tool: NAME, args: { type: 'object' } },
            },
          },
          message_history: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['role', 'content'],
              properties: { role: { enum: ['user', 'assistant'] }, content: TEXT },
            },
          },
          // Adversarial scenarios and their contrastive twins (docs/format.md, "Adversarial
          // scenarios"); a tactic outside the documented list is a warning of check, not an error.
          tags: { type: 'array', items: POLICY_ID },
          tactic: TEXT,
          twin_of: POLICY_ID,
        },
      },
    },
    // The project's own wording of the prompts the simulation sends (sim/prompts.ts). An empty
    // one is reported by the prompt checks, which can say more than "must not be empty".
    prompts: {
      type: 'object',
      additionalProperties: false,
      properties: {
        user_simulator: { type: 'string' },
        ask_user: { type: 'string' },
        scenario_generator: { type: 'string' },
        policy_judge: { type: 'string' },
        assertion_judge: { type: 'string' },
        attack: { type: 'string' },
        guard_draft: { type: 'string' },
        relate: { type: 'string' },
        extract_policies: { type: 'string' },
      },
    },
  },
} as const;

/** The bundle file (`*.policylab.json`) that holds a whole project. */
export const BUNDLE_SCHEMA = {
  $id: 'policylab:bundle',
  type: 'object',
  required: ['format', 'files'],
  properties: {
    format: { const: 'policylab/1' },
    name: { type: 'string' },
    files: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;
