import type { ExpectedArgs } from '../format/model.ts';
import type { TranscriptCall } from './transcript.ts';
import { describeCall, ordinal, wasRefused } from './transcript.ts';

/*
 * Expected actions with arguments, matched as tau2-bench matches its expected actions
 * (`Action.compare_with_tool_call`): same tool name, and equal values for the arguments compared.
 * The arguments compared are `compare` when the scenario gives it, else the call's own
 * arguments; an empty list compares none. So without `compare`, an argument the call leaves out
 * is not compared, and one the call gives that the expectation lacks is a difference.
 */

/** One compared argument whose values differ; `undefined` where a side does not give it. */
export interface ArgDifference {
  readonly name: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
}

/**
 * Whether two JSON values are equal: objects whatever their key order, lists in order, numbers
 * by value (1 and 1.0 are equal), and no coercion between types (true is not 1).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((k) => Object.hasOwn(right, k) && jsonEqual(left[k], right[k]));
}

/** The compared arguments on which a call differs from the expectation; empty when it matches. */
export function argDifferences(
  expected: ExpectedArgs,
  args: Readonly<Record<string, unknown>>,
): ArgDifference[] {
  const names = [...new Set(expected.compare ?? Object.keys(args))];
  return names.flatMap((name) => {
    const wanted = Object.hasOwn(expected.args, name);
    const given = Object.hasOwn(args, name);
    if (!wanted && !given) return [];
    if (wanted && given && jsonEqual(expected.args[name], args[name])) return [];
    return [
      {
        name,
        ...(wanted && { expected: expected.args[name] }),
        ...(given && { actual: args[name] }),
      },
    ];
  });
}

/** The verdict on one expected action with arguments, as `checkExpectations` records it. */
export interface ActionVerdict {
  readonly passed: boolean;
  readonly detail: string;
  readonly turn?: number;
}

/**
 * Judges a required action with arguments: met when some call to `tool` that no guard refused
 * has the expected values for the compared arguments (a call the tool itself answered with an
 * error still counts, as in tau2-bench). A failure names the call that came closest (fewest
 * differing arguments, the earliest of equals) and each argument that differed.
 */
export function requiredWithArgs(
  calls: readonly TranscriptCall[],
  tool: string,
  expected: ExpectedArgs,
): ActionVerdict {
  const wanted = describeCall({ tool, args: expected.args });
  const attempts = calls.filter((c) => c.tool === tool);
  const allowed = attempts.filter((c) => !wasRefused(c));
  let closest: { call: TranscriptCall; differences: ArgDifference[] } | undefined;
  for (const call of allowed) {
    const differences = argDifferences(expected, call.args);
    if (differences.length === 0) {
      const failed = call.result?.ok === false ? ' (the tool answered with an error)' : '';
      return {
        passed: true,
        detail: `In its ${ordinal(call.reply)} reply the agent called ${describeCall(call)}, which has the expected arguments${compared(expected)}${failed}.`,
      };
    }
    if (!closest || differences.length < closest.differences.length)
      closest = { call, differences };
  }
  if (!closest) {
    const refused = attempts.length === 0 ? '' : ` (a guard refused all ${attempts.length})`;
    return {
      passed: false,
      detail: `The agent never made the expected call ${wanted}${refused}.`,
      ...(attempts[0] && { turn: attempts[0].turn }),
    };
  }
  const { call, differences } = closest;
  const times = allowed.length === 1 ? 'once' : `${allowed.length} times`;
  return {
    passed: false,
    detail: `The agent called ${tool} ${times} but never as expected (${wanted}${compared(expected)}); the closest, in its ${ordinal(call.reply)} reply, ${differences.map(describeDifference).join('; ')}.`,
    turn: call.turn,
  };
}

function compared(expected: ExpectedArgs): string {
  if (expected.compare === undefined) return '';
  if (expected.compare.length === 0) return ', comparing no argument';
  return `, comparing ${expected.compare.join(', ')}`;
}

function describeDifference(d: ArgDifference): string {
  if (!Object.hasOwn(d, 'actual'))
    return `gave no ${d.name} where ${shown(d.expected)} was expected`;
  if (!Object.hasOwn(d, 'expected'))
    return `gave ${d.name} ${shown(d.actual)}, which the expected call does not have`;
  return `gave ${d.name} ${shown(d.actual)} where ${shown(d.expected)} was expected`;
}

function shown(value: unknown): string {
  try {
    // JSON.stringify gives undefined for what JSON cannot hold, whatever its type says.
    const json = JSON.stringify(value) as string | undefined;
    const text = json ?? String(value);
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  } catch {
    return '(a value that cannot be shown)';
  }
}
