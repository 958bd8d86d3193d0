import type { PyValue } from './literal.ts';
import { isNotLiteral, literalOf } from './literal.ts';
import type { PyStatement } from './statements.ts';
import {
  closingIndex,
  indexOfTopLevel,
  readStatements,
  splitTopLevel,
  textOf,
} from './statements.ts';
import type { PyProblem, PyToken } from './tokenize.ts';

/** A parameter of a `def`, with its annotation and default as written. */
export interface PyParam {
  readonly name: string;
  readonly kind: 'plain' | 'star' | 'starstar';
  readonly annotation?: string;
  readonly default?: string;
}

/** A `raise` in a function body, with the `if` it sits under (as text) when there is one. */
export interface PyRaise {
  readonly line: number;
  readonly exception: string;
  /** The message: a string literal's value, or an f-string's raw body. */
  readonly message: string;
  readonly fstring: boolean;
  readonly condition?: string;
  /**
   * True when the raise sits directly under an `if` of the function's own body (no loop, `elif`,
   * `else` or outer `if` around it), so that `condition` alone decides it.
   */
  readonly direct?: boolean;
}

/** A `def`: its signature, docstring, the raises in its body and its source. */
export interface PyFunction {
  readonly name: string;
  readonly line: number;
  readonly decorators: readonly string[];
  readonly params: readonly PyParam[];
  readonly returns?: string;
  readonly docstring?: string;
  readonly raises: readonly PyRaise[];
  readonly body: readonly PyStatement[];
  readonly text: string;
}

/** A class-level annotated field (`name: Type = Field(description=...)`). */
export interface PyField {
  readonly name: string;
  readonly line: number;
  readonly annotation: string;
  readonly default?: string;
  /** `Field(description=...)`'s text, when it is a plain string. */
  readonly description?: string;
  /** The field may be left out: it has a default that is not `...`. */
  readonly optional: boolean;
}

/** A class with its bases, decorators, docstring, fields and methods. */
export interface PyClass {
  readonly name: string;
  readonly line: number;
  readonly bases: readonly string[];
  readonly decorators: readonly string[];
  readonly docstring?: string;
  readonly fields: readonly PyField[];
  readonly methods: readonly PyFunction[];
  /** `NAME = value` lines of the body (an Enum's members), the value as written. */
  readonly members: ReadonlyArray<{ readonly name: string; readonly value: string }>;
}

/** A module-level `NAME = expression` (type aliases such as `Status = Literal[...]`). */
export interface PyAssignment {
  readonly name: string;
  readonly line: number;
  readonly value: string;
}

/** What `readPythonModule` found: the module's classes, functions and assignments. */
export interface PyModule {
  readonly classes: readonly PyClass[];
  readonly functions: readonly PyFunction[];
  readonly assignments: readonly PyAssignment[];
  readonly problems: readonly PyProblem[];
}

/**
 * Reads the module-level shape of a Python source: classes (bases, decorators, docstring,
 * annotated fields, methods), functions (signature, docstring, the `raise`s in the body) and
 * assignments. Python is parsed, never run; what it cannot read is reported in `problems` and
 * never thrown.
 */
export function readPythonModule(source: string): PyModule {
  const { statements, problems } = readStatements(source);
  const reader = new ModuleReader(source, [...problems]);
  const classes: PyClass[] = [];
  const functions: PyFunction[] = [];
  const assignments: PyAssignment[] = [];
  let decorators: string[] = [];
  for (const statement of statements) {
    const [head] = statement.tokens;
    if (head?.type === 'op' && head.value === '@') {
      decorators.push(textOf(source, statement.tokens.slice(1)));
      continue;
    }
    if (head?.value === 'class' && head.type === 'name')
      classes.push(reader.class(statement, decorators));
    else if (head?.value === 'def' && head.type === 'name')
      functions.push(reader.function(statement, decorators));
    else if (head?.value === 'async' && statement.tokens[1]?.value === 'def')
      functions.push(
        reader.function({ ...statement, tokens: statement.tokens.slice(1) }, decorators),
      );
    else {
      const assignment = reader.assignment(statement);
      if (assignment) assignments.push(assignment);
    }
    decorators = [];
  }
  return { classes, functions, assignments, problems: reader.problems };
}

class ModuleReader {
  private readonly source: string;
  readonly problems: PyProblem[];

  constructor(source: string, problems: PyProblem[]) {
    this.source = source;
    this.problems = problems;
  }

  class(statement: PyStatement, decorators: readonly string[]): PyClass {
    const tokens = statement.tokens;
    const name = tokens[1]?.type === 'name' ? tokens[1].value : '';
    if (name === '')
      this.problems.push({ line: statement.line, message: 'A class without a name.' });
    let bases: string[] = [];
    if (tokens[2]?.value === '(') {
      const end = closingIndex(tokens, 2);
      bases = splitTopLevel(tokens.slice(3, end - 1), ',')
        .filter((p) => p.length > 0)
        .map((p) => textOf(this.source, p));
    }
    const fields: PyField[] = [];
    const methods: PyFunction[] = [];
    const members: Array<{ name: string; value: string }> = [];
    let pending: string[] = [];
    for (const inner of statement.body) {
      const [head] = inner.tokens;
      if (head?.type === 'op' && head.value === '@') {
        pending.push(textOf(this.source, inner.tokens.slice(1)));
        continue;
      }
      if (head?.type === 'name' && head.value === 'def')
        methods.push(this.function(inner, pending));
      else if (head?.type === 'name' && head.value === 'async' && inner.tokens[1]?.value === 'def')
        methods.push(this.function({ ...inner, tokens: inner.tokens.slice(1) }, pending));
      else if (head?.type === 'name' && inner.tokens[1]?.value === ':' && inner.body.length === 0) {
        fields.push(this.field(inner));
      } else if (
        head?.type === 'name' &&
        inner.tokens[1]?.value === '=' &&
        inner.tokens.length > 2 &&
        inner.body.length === 0
      )
        members.push({ name: head.value, value: textOf(this.source, inner.tokens.slice(2)) });
      pending = [];
    }
    const docstring = docstringOf(statement.body);
    return {
      name,
      line: statement.line,
      bases,
      decorators: [...decorators],
      ...(docstring !== undefined ? { docstring } : {}),
      fields,
      methods,
      members,
    };
  }

  field(statement: PyStatement): PyField {
    const tokens = statement.tokens;
    const eq = indexOfTopLevel(tokens, '=');
    const annotation = textOf(this.source, tokens.slice(2, eq < 0 ? undefined : eq));
    if (eq < 0)
      return { name: tokens[0]?.value ?? '', line: statement.line, annotation, optional: false };
    const valueTokens = tokens.slice(eq + 1);
    const call = callOf(valueTokens);
    let description: string | undefined;
    let optional = true;
    if (call !== undefined && /^(?:pydantic\.)?Field$/.test(textOf(this.source, call.callee))) {
      const describe = call.keywords.get('description');
      const value = describe === undefined ? undefined : literalOf(describe);
      if (typeof value === 'string') description = value;
      const positional = call.positional[0];
      const def = call.keywords.get('default') ?? positional;
      optional =
        (def !== undefined && textOf(this.source, def) !== '...') ||
        call.keywords.has('default_factory');
    }
    return {
      name: tokens[0]?.value ?? '',
      line: statement.line,
      annotation,
      default: textOf(this.source, valueTokens),
      ...(description !== undefined ? { description } : {}),
      optional,
    };
  }

  function(statement: PyStatement, decorators: readonly string[]): PyFunction {
    const tokens = statement.tokens;
    const name = tokens[1]?.type === 'name' ? tokens[1].value : '';
    const open = tokens[2]?.value === '(' ? 2 : -1;
    const close = open < 0 ? -1 : closingIndex(tokens, open);
    if (name === '' || close < 0)
      this.problems.push({
        line: statement.line,
        message: `The signature of "def ${name}" could not be read.`,
      });
    const params = close < 0 ? [] : this.params(tokens.slice(open + 1, close - 1));
    const arrow = close < 0 ? -1 : indexOfTopLevel(tokens, '->', close);
    const colon = tokens.length - 1;
    const returns = arrow < 0 ? undefined : textOf(this.source, tokens.slice(arrow + 1, colon));
    const docstring = docstringOf(statement.body);
    const first = statement.tokens[0];
    const lastToken = lastTokenOf(statement);
    return {
      name,
      line: statement.line,
      decorators: [...decorators],
      params,
      ...(returns !== undefined ? { returns } : {}),
      ...(docstring !== undefined ? { docstring } : {}),
      raises: raisesIn(this.source, statement.body, undefined, false, true),
      body: statement.body,
      text: first && lastToken ? this.source.slice(first.start, lastToken.end) : '',
    };
  }

  params(tokens: readonly PyToken[]): PyParam[] {
    const params: PyParam[] = [];
    for (const part of splitTopLevel(tokens, ',')) {
      if (part.length === 0) continue;
      const star = part[0]?.value === '*' ? 'star' : part[0]?.value === '**' ? 'starstar' : 'plain';
      const rest = star === 'plain' ? part : part.slice(1);
      const name = rest[0];
      if (name?.type !== 'name') continue; // a bare `*` or `/`
      const eq = indexOfTopLevel(rest, '=');
      const colon = indexOfTopLevel(rest, ':');
      const annotation =
        colon < 0 ? undefined : textOf(this.source, rest.slice(colon + 1, eq < 0 ? undefined : eq));
      const def = eq < 0 ? undefined : textOf(this.source, rest.slice(eq + 1));
      params.push({
        name: name.value,
        kind: star,
        ...(annotation !== undefined ? { annotation } : {}),
        ...(def !== undefined ? { default: def } : {}),
      });
    }
    return params;
  }

  assignment(statement: PyStatement): PyAssignment | undefined {
    const tokens = statement.tokens;
    if (tokens[0]?.type !== 'name' || tokens[1]?.value !== '=') return undefined;
    return {
      name: tokens[0].value,
      line: statement.line,
      value: textOf(this.source, tokens.slice(2)),
    };
  }
}

/** A call `callee(args)`: its callee tokens, positional arguments and keyword arguments. */
export function callOf(
  tokens: readonly PyToken[],
): { callee: PyToken[]; positional: PyToken[][]; keywords: Map<string, PyToken[]> } | undefined {
  const open = tokens.findIndex((t) => t.type === 'op' && t.value === '(');
  if (open <= 0 || closingIndex(tokens, open) !== tokens.length) return undefined;
  const positional: PyToken[][] = [];
  const keywords = new Map<string, PyToken[]>();
  for (const part of splitTopLevel(tokens.slice(open + 1, -1), ',')) {
    if (part.length === 0) continue;
    if (part[0]?.type === 'name' && part[1]?.value === '=')
      keywords.set(part[0].value, part.slice(2));
    else positional.push(part);
  }
  return { callee: tokens.slice(0, open), positional, keywords };
}

function docstringOf(body: readonly PyStatement[]): string | undefined {
  const first = body[0];
  if (first === undefined || !first.tokens.every((t) => t.type === 'string')) return undefined;
  const value = literalOf(first.tokens);
  return typeof value === 'string' ? dedent(value) : undefined;
}

/** A docstring with its common indentation (after the first line) removed, as `inspect` does. */
function dedent(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const indents = lines
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => /^\s*/.exec(l)?.[0].length ?? 0);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return [lines[0] ?? '', ...lines.slice(1).map((l) => l.slice(cut))].join('\n').trim();
}

function lastTokenOf(statement: PyStatement): PyToken | undefined {
  const last = statement.body[statement.body.length - 1];
  return last ? lastTokenOf(last) : statement.tokens[statement.tokens.length - 1];
}

const BRANCH = new Set(['if', 'elif']);

/** Every `raise` under statements, each with the condition of the `if` nearest above it. */
function raisesIn(
  source: string,
  statements: readonly PyStatement[],
  condition: string | undefined,
  direct = false,
  top = false,
): PyRaise[] {
  const raises: PyRaise[] = [];
  for (const statement of statements) {
    const [head] = statement.tokens;
    if (head?.type !== 'name') continue;
    if (BRANCH.has(head.value)) {
      const colon = indexOfTopLevel(statement.tokens, ':');
      const test = textOf(source, statement.tokens.slice(1, colon < 0 ? undefined : colon));
      const inline = colon < 0 ? [] : statement.tokens.slice(colon + 1);
      const alone = top && head.value === 'if';
      if (inline.length > 0)
        raises.push(
          ...raisesIn(source, [{ tokens: inline, line: statement.line, body: [] }], test, alone),
        );
      raises.push(...raisesIn(source, statement.body, test, alone));
    } else if (head.value === 'raise') {
      const raised = raiseOf(source, statement, condition);
      raises.push(direct && condition !== undefined ? { ...raised, direct: true } : raised);
    } else if (head.value === 'return' && isErrorReturn(statement.tokens.slice(1))) {
      // IntellAgent's tools return "Error: …" where tau2's raise.
      const message = literalOf(statement.tokens.slice(1));
      raises.push({
        line: statement.line,
        exception: 'return',
        message: typeof message === 'string' ? message : '',
        fstring: false,
        ...(condition !== undefined ? { condition } : {}),
        ...(direct && condition !== undefined ? { direct: true } : {}),
      });
    } else {
      raises.push(
        ...raisesIn(source, statement.body, head.value === 'else' ? undefined : condition),
      );
    }
  }
  return raises;
}

const isErrorReturn = (tokens: readonly PyToken[]) => {
  const value = tokens.length > 0 ? literalOf(tokens) : undefined;
  return typeof value === 'string' && /^error\b/i.test(value);
};

function raiseOf(source: string, statement: PyStatement, condition: string | undefined): PyRaise {
  const rest = statement.tokens.slice(1);
  const call = callOf(rest);
  const exception = textOf(source, call?.callee ?? rest);
  const first = call?.positional[0];
  const literal: PyValue | { notLiteral: string } | undefined = first
    ? literalOf(first)
    : undefined;
  const fstring = first?.some((t) => t.fstring === true) ?? false;
  const message =
    literal !== undefined && !isNotLiteral(literal) && typeof literal === 'string'
      ? literal
      : fstring
        ? (first ?? []).map((t) => t.value).join('')
        : textOf(source, first ?? []);
  return {
    line: statement.line,
    exception,
    message,
    fstring,
    ...(condition !== undefined ? { condition } : {}),
  };
}

/**
 * The source with each property that only returns a path into the database (`@property def
 * device(self): return self.db.device`) written out where it is used: `self.device.x` reads as
 * `self.db.device.x`, so readers that follow `self.db` follow code written against the property.
 */
export function inlineDatabaseProperties(source: string): string {
  const aliases = new Map<string, string>();
  for (const owner of readPythonModule(source).classes)
    for (const method of owner.methods) {
      if (!method.decorators.includes('property')) continue;
      const body = bodyLines(method.text);
      const only = body.length === 1 ? /^return\s+(self\.db(?:\.\w+)+)$/.exec(body[0] ?? '') : null;
      if (only?.[1]) aliases.set(method.name, only[1]);
    }
  let out = source;
  for (const [name, path] of aliases)
    // Not a call of it, and not an assignment to it (`==` is a comparison, which it reads).
    out = out.replace(new RegExp(`\\bself\\.${name}\\b(?!\\s*(?:\\(|=(?!=)))`, 'g'), path);
  return out;
}

/** A `def`'s body as trimmed lines, its docstring and blank lines left out. */
function bodyLines(defText: string): string[] {
  const lines = defText
    .split('\n')
    .slice(1)
    .map((l) => l.trim());
  const out = lines.filter((l) => l !== '' && !l.startsWith('#'));
  if (out[0] && /^("""|''')/.test(out[0])) {
    const quote = out[0].slice(0, 3);
    const end = out.findIndex((l, i) =>
      i === 0 ? l.length > 3 && l.endsWith(quote) : l.endsWith(quote),
    );
    out.splice(0, end + 1);
  }
  return out;
}
