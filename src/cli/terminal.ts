import type { CliIO } from './main.ts';

/*
 * What the command line prints comes partly from files (ids, categories, texts, a model's words).
 * A terminal obeys control codes: an escape sequence in a policy id could clear the screen,
 * recolour or rewrite a line, and fake "0 errors" in a CI log; bidirectional overrides reorder
 * what is shown. So every control character is printed as a visible escape instead.
 */

/**
 * C0 controls but tab, newline and a carriage return that ends a line (CSV's \r\n), DEL, C1
 * controls, and the bidirectional embeddings, overrides and isolates. A lone carriage return
 * would let a later text overwrite the start of its line.
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|\r(?!\n)/g;

/** `text` with each control character written as `\xHH` or `\uHHHH`, which a terminal shows as is. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
      : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

/** The same output and error streams, printing only what a terminal shows as text. */
export function safeIO(io: CliIO): CliIO {
  return {
    out: (text) => {
      io.out(terminalSafe(text));
    },
    err: (text) => {
      io.err(terminalSafe(text));
    },
  };
}
