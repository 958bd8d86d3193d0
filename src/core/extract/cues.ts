// What makes a sentence a rule, and what makes it a description of data. Plain word patterns:
// the same prompt always gives the same answer, and nothing is asked of a model.

const STRONG = new RegExp(
  [
    String.raw`\b(?:must|mustn't|should|shouldn't|shall|never|always|only|cannot|can't|can not)\b`,
    String.raw`\b(?:do|does|did) not\b`,
    String.raw`\b(?:don't|doesn't|won't)\b`,
    String.raw`\b(?:need|needs|have|has) to\b`,
    String.raw`\b(?:required|requires|require|mandatory|prohibited|forbidden|not allowed|not permitted|allowed to|permitted to|is allowed|are allowed|eligible|entitled|no need|at most|at least|no more than|up to|in no case|under no circumstances|unless|except|not acceptable|unacceptable)\b`,
    String.raw`\bmay not\b`,
    String.raw`\bnot (?:refundable|eligible|permitted|possible|accepted|covered|available to)\b`,
    String.raw`\bit is (?:important|essential|crucial|vital|necessary|mandatory|required) (?:that|to)\b`,
    String.raw`\b(?:make|be) sure\b`,
    String.raw`\bif and only if\b`,
  ].join('|'),
  'i',
);
// "can"/"may" grant a permission when an action follows ("the agent can offer", "can be
// cancelled"), not when a fact does ("an order can be: pending, …", "orders can have …").
const PERMISSION =
  /\b(?:can|may|could)\s+(?:also\s+|still\s+)?(?:be\s+[a-z]+(?:ed|en|t)\b|(?!be\b|have\b|contain|include|consist|hold\b|mean\b)[a-z]+)/i;
// "you will", "the agent will": a promise the agent makes, unlike "the status will be changed".
const AGENT_WILL = /\b(?:you|the agent|the assistant)\s+(?:will|are to|are expected to)\b/i;
/** Verbs that start a command ("Ask the guest…", "Check the status…"). */
export const IMPERATIVE_VERBS: ReadonlySet<string> = new Set(
  (
    'accept act add advise allow answer apologise apologize approve arrange ask assist avoid be ' +
    'block book call cancel charge check clarify close collect compare compute confirm connect ' +
    'consider contact decline deny direct do double-check encourage end ensure escalate explain ' +
    'fetch file find follow freeze gather get give grant greet guide hand help hold inform ' +
    'introduce keep let list lock look lower make mention notify obtain offer open pass place ' +
    'point proceed process provide quote raise read recommend record refer refund refuse reject ' +
    'remember remind remove repeat reply report request reset respond return review route say ' +
    'schedule search send serve set share show speak state stop submit suggest summarise ' +
    'summarize tell thank transfer treat try unblock unlock update use validate verify waive ' +
    'wait warn welcome write'
  ).split(' '),
);
// A condition or time before the main clause: "If the user asks, …", "Before booking, …".
const LEADING_CLAUSE =
  /^(?:if|when|whenever|once|before|after|while|unless|for|in|on|at|during|as soon as|where|otherwise|then|also|finally|first|next|afterwards|please|to)\b[^,]*,\s*/i;
// Adverbs that may come before the verb of a command: "first make", "then send".
const ADVERBS = /^(?:(?:first|then|also|always|just|simply|immediately|politely|kindly|now)\s+)+/i;

/** Whether a sentence tells the agent what to do, not to do, or what is allowed. */
export function isObligation(sentence: string): boolean {
  if (STRONG.test(sentence) || PERMISSION.test(sentence) || AGENT_WILL.test(sentence)) return true;
  return isImperative(sentence);
}

/** Whether a sentence is a command: it starts (after a condition, if any) with a verb. */
export function isImperative(sentence: string): boolean {
  const main = sentence.replace(/^[\s*_>"'“‘(]+/, '').replace(ADVERBS, '');
  const first = firstWord(main);
  if (first === 'please') return true;
  if (first !== undefined && IMPERATIVE_VERBS.has(first)) return true;
  // "Disputes over cash go to the fraud team, so transfer those": the command comes last.
  const so = /,\s+so\s+([a-z]+)/i.exec(main)?.[1]?.toLowerCase();
  if (so !== undefined && IMPERATIVE_VERBS.has(so)) return true;
  if (!LEADING_CLAUSE.test(main)) return false;
  // The condition may hold commas of its own ("If they ask for a loan, a card or a mortgage,
  // transfer them"): the command is the first part after a comma that starts with a verb.
  return main
    .split(/,\s*/)
    .slice(1)
    .some((part) => {
      const next = firstWord(part.replace(ADVERBS, ''));
      return next !== undefined && IMPERATIVE_VERBS.has(next);
    });
}

function firstWord(text: string): string | undefined {
  return /^([A-Za-z][a-z-]*)/.exec(text)?.[1]?.toLowerCase();
}

const DATA_LEAD_IN = [
  // "Each user has a profile containing:", "Each order has the following attributes:"
  /^(?:each|every|an?|the|our|all)\b[^.:;]{0,60}\b(?:has|have|contains?|containing|consists? of|includes?|including|holds?)\b/i,
  /\b(?:the following|these) (?:attributes|fields|properties|columns|information|details|data)\b/i,
  /\b(?:attributes|fields|properties|columns)\b\s*:?\s*$/i,
  // "There are three types of payment methods", "The status of an order can be:"
  /^there (?:are|is)\b/i,
  // "Order statuses are pending, processing or shipped", "Room types include …"
  /^(?:the )?(?:\w+ ){0,3}(?:statuses|states|types|kinds|categories|values|fields|attributes) (?:are|include)\b/i,
  /\bcan be\s*:\s*$/i,
  /\b(?:is|are) (?:one|any) of\s*:?\s*$/i,
  /^(?:for example|for instance|e\.g\.|example)\b/i,
];

/**
 * Whether a sentence describes data rather than behaviour: what a record holds, the values a
 * field takes, an example. A sentence that also carries a strong obligation is never data.
 */
export function isDataDescription(sentence: string): boolean {
  if (/^(?:for example|for instance|e\.g\.)/i.test(sentence)) return true;
  if (STRONG.test(sentence) || AGENT_WILL.test(sentence)) return false;
  return DATA_LEAD_IN.some((pattern) => pattern.test(sentence));
}

// "user_id: the user's id", "`email` (string)": one field of a record, not a rule.
const FIELD = /^`?[A-Za-z_][\w.]*`?\s*(?::|—|–|\s-\s|\()/;

/**
 * Whether a list item names a field of a record ("`user_id`: the user's id", "email: where to
 * write"). Under a lead-in ("Free bags:"), only a code-like key counts: "silver: 2 bags" is a rule.
 */
export function isFieldItem(item: string, underLeadIn = false): boolean {
  const match = FIELD.exec(item);
  if (!match) return false;
  const key = match[0];
  return key.includes('_') || key.includes('`') || (!underLeadIn && /^[a-z]/.test(key));
}
