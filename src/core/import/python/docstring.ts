/** A Google-style docstring: the summary and each argument's description. */
export interface Docstring {
  readonly description: string;
  readonly args: ReadonlyMap<string, string>;
}

const SECTION = /^(Args|Arguments|Parameters|Returns|Return|Raises|Yields|Examples?|Notes?):\s*$/;

/** Reads a docstring's text before its sections and its `Args:` entries (`name (type): text`). */
export function readDocstring(text: string): Docstring {
  const lines = text.split('\n');
  const description: string[] = [];
  const args = new Map<string, string>();
  let section: string | undefined;
  let current: string | undefined;
  let entryIndent = -1;
  for (const line of lines) {
    const heading = SECTION.exec(line.trim());
    if (heading) {
      section = heading[1];
      current = undefined;
      entryIndent = -1;
      continue;
    }
    if (section === undefined) {
      description.push(line);
      continue;
    }
    if (section !== 'Args' && section !== 'Arguments' && section !== 'Parameters') continue;
    if (line.trim() === '') continue;
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    const entry = /^\s*\*{0,2}([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:\s*(.*)$/.exec(line);
    if (entry && (entryIndent < 0 || indent <= entryIndent)) {
      entryIndent = indent;
      current = entry[1] ?? '';
      args.set(current, (entry[2] ?? '').trim());
    } else if (current !== undefined) {
      args.set(current, `${args.get(current) ?? ''} ${line.trim()}`.trim());
    }
  }
  return {
    description: description
      .join('\n')
      .trim()
      .replace(/\s*\n\s*/g, ' '),
    args,
  };
}
