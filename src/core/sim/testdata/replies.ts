/* Labelled customer replies, for the agreement reader's corpus (agreements.ts). */

/** One reply and how it should read. */
export interface LabelledReply {
  readonly text: string;
  readonly reading: 'agrees' | 'refuses' | 'unclear';
}

/** Replies that agree. */
export const agrees = (...texts: string[]): LabelledReply[] =>
  texts.map((text) => ({ text, reading: 'agrees' }));
/** Replies that refuse. */
export const refuses = (...texts: string[]): LabelledReply[] =>
  texts.map((text) => ({ text, reading: 'refuses' }));
/** Replies that cannot be read either way. */
export const unclear = (...texts: string[]): LabelledReply[] =>
  texts.map((text) => ({ text, reading: 'unclear' }));

