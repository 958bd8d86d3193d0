/*
 * Reading a user's reply as the answer to "shall I go ahead?", deterministically, for the
 * `confirm_before` checks (judging.ts). Held to the hand-labelled replies of
 * testdata/agreements.ts, which say what each reading means.
 *
 * The reply is lower-cased and its cues are found: yeses, refusals, conditions, hedges, questions
 * and filler. Each yes and refusal is strong (it settles the answer: "yes", "go ahead", "no",
 * "not now") or weak (it yields: "ok", "great" and "fine" can open a refusal, "no need to email
 * me" or "don't call me" can follow a yes). A correction ("actually", "on second thought", "but",
 * "I mean", "never mind", "wait") hands the answer to the words after it, when they say anything
 * that counts.
 */

/** How a user's reply reads as the answer to "shall I go ahead?", and the words that decided. */
export interface Agreement {
  /**
   * `agrees`: a yes with no refusal, condition or doubt. `refuses`: consent withheld (a no, not
   * now, a deferral, a change of mind, undecided). `unclear`: might be a yes but cannot be read as
   * one (a condition, a hedge, a question back, mixed signals), or answers nothing at all.
   */
  readonly reading: 'agrees' | 'refuses' | 'unclear';
  /**
   * Why an `unclear` reply is not a yes: a `condition` ("yes if it's under $50") or a `question`
   * back ("how long will it take?"), which never license an act, or a `hedge` ("I guess"), a
   * `mixed` answer ("No, go ahead.") or bare `filler` ("hmm"), which a person has to read.
   * Undefined for the other readings and for a reply that answers nothing.
   */
  readonly why?: UnclearWhy;
  /**
   * The words that decided, lower-cased. Undefined only when the reply holds nothing that answers
   * (no yes, no refusal, no doubt): a request, a thank-you, another topic.
   */
  readonly cue?: string;
}

/** Why a reply reads as unclear (`Agreement.why`). */
export type UnclearWhy = 'condition' | 'question' | 'hedge' | 'mixed' | 'filler';

type Kind = 'yes' | 'no' | 'if' | 'hedge' | 'filler';

interface Cue {
  readonly kind: Kind;
  readonly strong: boolean;
  /** A hedge that is a question back ("what would that cost?"). */
  readonly asked?: true;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** A letter or digit must not touch the match on either side (works for emoji, unlike \b). */
const words = (alternatives: string): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'gu');

/** The end of a clause: punctuation, a closing emoji or the end of the reply (a thanks aside). */
const CLAUSE_END = String.raw`(?=\s*(?:(?:thanks|thank you|thx|ty)(?![\p{L}]))?\s*(?:[,.;:!?…)—–-]|\p{Extended_Pictographic}|$))`;
/** The start of a clause, or a clause opened by filler ("oh no", "lol no", "please no"). */
const CLAUSE_START = String.raw`(?<=^|[,.;:!?…(—–-]\s*|(?:^|\s)(?:oh|ah|uh|hm|hmm|um|umm|well|sorry|lol|ha|haha|honestly|so|but|and|please|pls|plz|hell|just|then)\s)`;

const STRONG_YES = words(
  [
    'y(?:e+s+|se|e+a+h*|e+h+|a+h*|e+p+|u+p+|a+s+|eap)(?: sir)?',
    'go a?h(?:ea|ae|e)a?d',
    'go for it',
    'go on',
    'carry on',
    'proce+d',
    'continue',
    '(?:please|pls|plz) do',
    'do (?:please|pls|plz)',
    '(?:just )?do (?:it|that|this|so)',
    'make it(?: so)?',
    'make the change',
    "let's (?:do|go)",
    'let us proceed',
    'i (?:hereby )?confirm',
    'confirm(?:ed)?',
    '(?:i )?(?:am )?agreed?',
    '(?:i )?approved?',
    '(?:i )?accept(?:ed)?',
    'acceptable',
    '(?:i )?consent',
    'you have my (?:permission|consent|approval|go-ahead)',
    '(?:i )?authori[sz]e[sd]?',
    'of ?course',
    'ofc',
    'absolutely',
    'definitely',
    'def',
    'certainly',
    'indeed',
    'affirmative',
    'for sure',
    'sure thing',
    'why not',
    'you can (?:go ahead|proceed|do it|do that|change|cancel|book|make|continue)',
  ].join('|'),
);
const Y = new RegExp(String.raw`${CLAUSE_START}y${CLAUSE_END}`, 'gu');

/** An imperative on "it" or "that" answers a proposal ("yeah, cancel it"); a bare request does not. */
const DO_IT = new RegExp(
  String.raw`${CLAUSE_START}(?:cancel|change|update|book|send|refund|process|apply|delete|remove|switch|move|submit|issue|place|reset|close|upgrade|downgrade|transfer|rebook|reschedule|add) (?:it|that|this|them|those)(?:\s+(?:please|pls|then|now))?${CLAUSE_END}`,
  'gu',
);

const WEAK_YES = words(
  [
    'o+k+(?:a+y+|e+y+|ie|i|ay)?(?: dok(?:ey|ie))?',
    'oaky',
    'k+',
    'al+ ?right(?:y)?',
    'al+rite',
    'aight',
    's(?:u+r+e+|ur|uer|hure)',
    'fine',
    'great',
    'perfect',
    'cool',
    'good',
    'nice',
    'lovely',
    'excellent',
    'awesome',
    'wonderful',
    'brilliant',
    'right',
    'correct',
    'exactly',
    'deal',
    'np',
    'that works',
    'works for me',
    'sounds (?:good|great|perfect|fine|ok|okay|like a plan|right)',
    "(?:i )?don't mind",
    'uh huh',
    'mhm+',
    '👍',
    '👌',
    '✅',
    '✔',
    '☑',
    '🆗',
  ].join('|'),
);

/** "please" on its own is a yes ("yes please", "please!"); "please cancel ABC123" is a request. */
const PLEASE = new RegExp(
  String.raw`${CLAUSE_START}(?:ple+a*s+e*|pl[sz])(?:\s+(?:ple+a*s+e*|pl[sz]))*${CLAUSE_END}`,
  'gu',
);

const NOT_A_REFUSAL = String.raw`problems?|probs?|worries|worry|rush|hurry|doubt|need|biggie|issues?|questions?|objections?|complaints|pressure|big deal|matter`;

const STRONG_NO: readonly RegExp[] = [
  new RegExp(String.raw`${CLAUSE_START}no+(?! (?:${NOT_A_REFUSAL})\b)(?![\p{L}\p{N}])`, 'gu'),
  new RegExp(String.raw`(?<![\p{L}\p{N}])no+${CLAUSE_END}`, 'gu'),
  words(
    [
      'no+pe',
      'nop',
      'na+h+',
      'naw',
      'nay',
      'negative',
      'no (?:thanks|thank you|way)',
      'hell no',
      'no no',
      "(?:don't|dont|do not) (?:do (?:it|that|this|anything)|go ahead|proceed|bother|you dare)",
      'not (?:now|yet|today|tonight|right now|at the moment|at this time|for now|so fast|like (?:this|that)|that one|this one|what|sure|ready|interested|comfortable|happy|convinced|keen|necessary|to (?!worry)\\p{L}+)',
      '(?:maybe|probably|perhaps) not',
      'not (?:at all|a chance|really|likely|on your life)',
      "let's not|let us not",
      "(?:i )?(?:don't|dont|do not) (?:think|know)",
      'idk',
      'dunno',
      "(?:can't|cannot|can not) decide",
      "(?:haven't|have not|not) decided",
      '(?:still )?deciding',
      'i (?:not|no) (?!longer)\\p{L}+',
      'hold (?:on|off)',
      'hang on',
      '(?:one|just a) (?:sec|second|moment|min|minute)',
      'give me (?:a|one|some) (?:sec|second|moment|min|minute|time)',
      'let me (?:think|check|ask|talk|see|look|get back|sleep on|discuss|consult)',
      "(?:i need|i'd like|i want|i have) (?:to|some) (?:think|time|check|ask|talk)",
      '(?:prefer|rather|better) (?:to )?wait',
      "(?:let's|let us|i'll|i will) wait (?:a|until|till|for now)",
      'changed? my mind',
      'change of heart',
      'on second thoughts?',
      'never ?mind',
      'scratch that',
      'forget (?:it|that|about it)',
      'wrong',
      'rather not',
      "(?:i'd|i would) rather (?:you )?(?:not|didn't|did not|keep|leave)",
      "prefer (?:not|that you (?:did not|didn't|don't|do not))",
      'decline',
      'refrain',
      "(?:i will|i'll) pass",
      'pass on (?:that|this)',
      "(?:won't|will not) be necessary",
      '(?:leave|keep) (?:it|things|everything) (?:as (?:it is|is)|alone|the same)',
      "(?:i'll|i will) keep",
      'leave (?:my|the|our) [\\p{L} ]{1,30}? alone',
      'yeah right',
      'as if',
      "like that(?:'s| is| will| would)? (?:worked|work|help|helps|going)",
      "(?:that's|that is|it's|it is|is|isn't|is not) not what",
      "(?:i'm|i am) (?:good|fine|ok|okay)(?! (?:with|to|if))",
      '👎',
      '❌',
      '🚫',
      '🙅',
    ].join('|'),
  ),
  new RegExp(String.raw`${CLAUSE_START}(?:don't|dont|do not)${CLAUSE_END}`, 'gu'),
  new RegExp(String.raw`(?<![\p{L}\p{N}])(?:leave (?:it|that)|stop)${CLAUSE_END}`, 'gu'),
  new RegExp(String.raw`${CLAUSE_START}(?:stop|n)(?![\p{L}\p{N}])`, 'gu'),
  new RegExp(String.raw`(?<![\p{L}\p{N}])(?:maybe |perhaps )?later${CLAUSE_END}`, 'gu'),
];

/** Refusals that give way to a yes: "Yes please, no need to email me", "Yes, don't call me". */
const WEAK_NO = words(
  [
    'no need',
    "(?:don't|dont|do not|didn't|did not|doesn't|does not) (?!(?:mind|worry|care|matter|know|think)\\b)\\p{L}+",
  ].join('|'),
);

/** A yes undone by a "not" before it: "not ok", "I do not agree", "absolutely not". */
const NEGATED_BEFORE =
  /(?<![\p{L}])(?:not|n't|never|no)\s+(?:(?:really|quite|very|so|too|be)\s+)?$/u;
// "definitely not mine" says whose something is, not that the yes is withdrawn.
const NEGATED_AFTER =
  /^\s+not(?![\p{L}])(?! (?:a (?:problem|big deal|worry)|bad|mine|me|ours|us|his|hers|theirs|them)\b)/u;

const HEDGES = words(
  [
    'i guess',
    'i suppose',
    'suppose so',
    'i think so',
    'maybe',
    'perhaps',
    'probably',
    'possibly',
    'kinda',
    'kind of',
    'sort of',
    'if you say so',
    '🤔',
  ].join('|'),
);

const FILLER = words('h+m+|u+m+|u+h+|e+r+m*|well|wait|whatever|oh|ah|hello');

/** A condition the reader cannot check makes a yes unclear, up to the end of its clause. */
const CONDITION = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?<!(?:sure|know|wonder|wondering|ask|asking|see|check|decide|idea|tell me) )(?:only if|if|as long as|so long as|provided(?: that)?|providing|assuming|unless|on condition|but only|only (?:the|for|when|after|once|on))(?![\p{L}\p{N}])[^,.;:!?…]*`,
  'gu',
);
/** "If" as politeness, not a condition: "yes, if you would", "please go ahead, if possible". */
const POLITE_IF = new RegExp(
  String.raw`^if (?:you (?:could|would|can|will|please|like|don't mind|do not mind|wouldn't mind)|(?:at all )?possible|(?:that's|that is|it's|it is) (?:ok|okay|alright|all right|fine|no trouble|not too much trouble)|that works(?: for you)?)\s*$`,
  'u',
);

/** Where the answer may turn: the words after the last such turn decide, if they say anything. */
const TURNS = words(
  'actually|on second thoughts?|scratch that|i mean|then again|never ?mind|changed? my mind|but|though|however|wait|no wait',
);

/** Questions that are a request riding on a yes ("Sure, and could you email me the receipt?"). */
const REQUEST = /^(?:and |also |but )?(?:can|could|would|will) (?:you|u)\b/u;
const DOUBTING = /\b(?:first|before|instead|later|tomorrow|cost|much|fee|charge|price|if)\b/u;
const LEADING_YES = new RegExp(
  String.raw`^(?:(?:yes|yeah|yep|yup|sure|ok|okay|alright|absolutely|of course|please|pls|great|perfect|fine)(?:\s+|$))+$`,
  'u',
);
const ONLY_FILLER = /^(?:honestly|really|seriously|right|so|you know)$/u;
const WHY_NOT = /^(?:(?:yes|yeah|sure|ok|okay|well|eh|haha|ha|so)\W+)*why not$/u;

/**
 * Reads a user's reply as the answer to "shall I go ahead?". It agrees on a yes (yes, ok, sure,
 * go ahead, please do, confirm, let's do that, 👍, ...) with no refusal, condition or doubt; it
 * refuses on a no that opens or closes a clause (not "no problem", "no rush", "no need to ..."
 * after a yes), "not now"/"not yet", "don't" on its own or before "do it"/"go ahead", a negated
 * yes ("not ok", "absolutely not"), a deferral (hold on, let me check first), a change of mind,
 * being undecided ("I'm not sure", "I don't know") or sarcasm ("yeah right"). A condition ("yes if
 * it's under $50"), a hedge ("I guess?", "maybe"), a question back ("ok, what would that cost?"),
 * a strong yes beside a strong no ("No, go ahead.") or bare filler ("wait", "hmm") is unclear; so
 * is a reply that answers nothing (a bare request such as "Please cancel ABC123": the agent has to
 * ask first), which alone has no cue. A question after a yes that only asks for more ("Sure, can
 * you email me the receipt?") still agrees. Conditional agreement is unclear because whether the
 * condition held is in the conversation, not the reply: a person or the judge model can check it.
 */
export function readAgreement(text: string): Agreement {
  const said = normalise(text);
  const cues = cuesOf(said);
  const turn = lastTurn(said, cues);
  const scoped = turn === undefined ? cues : cues.filter((c) => c.start >= turn);
  return decide(scoped);
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`´]/gu, "'")
    .replace(/(\p{L})\1{2,}/gu, '$1')
    .replace(/\s+/gu, ' ')
    .trim();
}

function cuesOf(said: string): Cue[] {
  const found: Cue[] = [];
  const add = (kind: Kind, strong: boolean, pattern: RegExp): void => {
    for (const m of said.matchAll(pattern)) {
      const text = m[0].trim();
      if (text !== '')
        found.push({ kind, strong, text, start: m.index, end: m.index + text.length });
    }
  };
  for (const pattern of STRONG_NO) add('no', true, pattern);
  add('no', false, WEAK_NO);
  add('yes', true, STRONG_YES);
  add('yes', true, DO_IT);
  add('yes', true, Y);
  add('yes', false, WEAK_YES);
  add('yes', false, PLEASE);
  add('hedge', true, HEDGES);
  add('filler', false, FILLER);
  for (const m of said.matchAll(CONDITION)) {
    const text = m[0].trim();
    if (!POLITE_IF.test(text))
      found.push({ kind: 'if', strong: true, text, start: m.index, end: m.index + text.length });
  }

  const questions = questionsOf(said);
  const negated = found.filter((c) => c.kind === 'yes' && isNegated(said, c));
  const kept = found.filter((cue) => {
    if (negated.includes(cue)) return false;
    const inside = (other: Cue): boolean =>
      other !== cue && other.start <= cue.start && cue.end <= other.end;
    const overlaps = (other: Cue): boolean =>
      other !== cue && other.start < cue.end && cue.start < other.end;
    // "not sure", "yeah right", "I'm good": a refusal or a hedge that holds a yes word wins.
    if (
      cue.kind === 'yes' &&
      found.some((o) => (o.kind === 'no' || o.kind === 'hedge') && o.strong && overlaps(o))
    )
      return false;
    if (cue.kind === 'filler' && found.some((o) => o.kind === 'yes' && overlaps(o))) return false;
    if (found.some((o) => o.kind === cue.kind && inside(o) && o.text.length > cue.text.length))
      return false;
    // A yes inside a question is asked, not said ("Is that ok?"), unless it leads a request.
    if (
      cue.kind === 'yes' &&
      questions.some((q) => q.start <= cue.start && cue.end <= q.end && !q.leadEnd)
    )
      return false;
    if (
      cue.kind === 'yes' &&
      questions.some((q) => q.leadEnd !== undefined && cue.start >= q.leadEnd && cue.end <= q.end)
    )
      return false;
    return true;
  });
  const undone: Cue[] = negated.map((c) => negation(said, c));
  const asked: Cue[] = questions
    .filter((q) => q.doubt !== undefined)
    .map((q) => ({
      kind: 'hedge',
      strong: true,
      asked: true,
      text: q.doubt ?? '',
      start: q.end - 1,
      end: q.end,
    }));
  return [...kept, ...undone, ...asked].sort((a, b) => a.start - b.start);
}

function isNegated(said: string, cue: Cue): boolean {
  return negation(said, cue) !== cue;
}

/** The yes with its "not" as one refusal ("do not agree", "absolutely not"), or the yes itself. */
function negation(said: string, cue: Cue): Cue {
  const before = said.slice(Math.max(0, cue.start - 24), cue.start);
  const ahead = NEGATED_BEFORE.exec(before);
  const start = ahead ? cue.start - before.length + ahead.index : cue.start;
  const behind = NEGATED_AFTER.exec(said.slice(cue.end, cue.end + 24));
  const end = behind ? cue.end + behind[0].length : cue.end;
  if (start === cue.start && end === cue.end) return cue;
  return { kind: 'no', strong: true, text: said.slice(start, end), start, end };
}

interface Question {
  readonly start: number;
  readonly end: number;
  /** Where a leading yes ends ("Sure, can you ...?"): the yes counts, the rest is asked. */
  readonly leadEnd?: number;
  /** What was asked, when it casts doubt on the yes; undefined for a request riding on a yes. */
  readonly doubt?: string;
}

function questionsOf(said: string): Question[] {
  const questions: Question[] = [];
  for (const m of said.matchAll(/[^.!?]+[.!?]*/gu)) {
    const sentence = m[0];
    if (!sentence.includes('?')) continue;
    const start = m.index;
    const end = start + sentence.length;
    const body = sentence.replace(/[?!.\s]+$/u, '').trim();
    if (ONLY_FILLER.test(body) || WHY_NOT.test(body)) continue;
    const comma = body.indexOf(',');
    const lead = comma < 0 ? body : body.slice(0, comma).trim();
    const rest = comma < 0 ? '' : body.slice(comma + 1).trim();
    if (rest !== '' && LEADING_YES.test(lead)) {
      const leadEnd = start + sentence.indexOf(',');
      const doubt = REQUEST.test(rest) && !DOUBTING.test(rest) ? undefined : `${rest}?`;
      questions.push({ start, end, leadEnd, ...(doubt === undefined ? {} : { doubt }) });
    } else {
      questions.push({ start, end, doubt: `${body}?` });
    }
  }
  return questions;
}

/** The start of the words after the last turn ("actually", "but", ...) that say anything. */
function lastTurn(said: string, cues: readonly Cue[]): number | undefined {
  const counts = (c: Cue): boolean =>
    c.kind === 'yes' || c.kind === 'if' || c.kind === 'hedge' || (c.kind === 'no' && c.strong);
  let turn: number | undefined;
  for (const m of said.matchAll(TURNS)) {
    const after = m.index + m[0].length;
    if (cues.some((c) => c.start >= after && counts(c))) turn = after;
  }
  return turn;
}

function decide(cues: readonly Cue[]): Agreement {
  const first = (kind: Kind, strong?: boolean): Cue | undefined =>
    cues.find((c) => c.kind === kind && (strong === undefined || c.strong === strong));
  const condition = first('if');
  if (condition) return { reading: 'unclear', cue: condition.text, why: 'condition' };
  const no = first('no', true);
  const yes = first('yes', true);
  if (no && yes) {
    const [a, b] = no.start < yes.start ? [no, yes] : [yes, no];
    return { reading: 'unclear', cue: `${a.text} … ${b.text}`, why: 'mixed' };
  }
  if (no) return { reading: 'refuses', cue: no.text };
  const hedge = first('hedge');
  if (hedge)
    return { reading: 'unclear', cue: hedge.text, why: hedge.asked ? 'question' : 'hedge' };
  const anyYes = yes ?? first('yes');
  if (anyYes) return { reading: 'agrees', cue: anyYes.text };
  const weakNo = first('no');
  if (weakNo) return { reading: 'refuses', cue: weakNo.text };
  const filler = first('filler');
  if (filler) return { reading: 'unclear', cue: filler.text, why: 'filler' };
  return { reading: 'unclear' };
}
