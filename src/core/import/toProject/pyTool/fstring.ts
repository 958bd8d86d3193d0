/**
 * An f-string's body as its text and its `{expression}` parts (`{{` and `}}` are braces); a part's
 * format spec or conversion (`:…`, `!r`) is kept apart in `spec`.
 */
export function fstringParts(body: string): Array<string | { expr: string; spec?: string }> {
  const parts: Array<string | { expr: string; spec?: string }> = [];
  let text = '';
  let i = 0;
  while (i < body.length) {
    const c = body[i] ?? '';
    if ((c === '{' || c === '}') && body[i + 1] === c) {
      text += c;
      i += 2;
      continue;
    }
    if (c !== '{') {
      text += c;
      i++;
      continue;
    }
    let depth = 0;
    let end = i + 1;
    let quote: string | undefined;
    let split = -1;
    for (; end < body.length; end++) {
      const d = body[end] ?? '';
      if (quote) {
        if (d === quote) quote = undefined;
      } else if (d === '"' || d === "'") quote = d;
      else if (d === '(' || d === '[' || d === '{') depth++;
      else if (d === ')' || d === ']' || (d === '}' && depth > 0)) depth--;
      else if (d === '}') break;
      else if (depth === 0 && split < 0 && (d === ':' || (d === '!' && body[end + 1] !== '=')))
        split = end;
    }
    if (text !== '') parts.push(text);
    text = '';
    const inner = body.slice(i + 1, end);
    const at = split < 0 ? -1 : split - i - 1;
    parts.push(at < 0 ? { expr: inner } : { expr: inner.slice(0, at), spec: inner.slice(at) });
    i = end + 1;
  }
  if (text !== '') parts.push(text);
  return parts;
}
