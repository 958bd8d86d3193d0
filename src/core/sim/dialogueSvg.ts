import { escapeXml } from '../graph/svg.ts';
import { findingState } from './events.ts';
import type { Replay, ReplayStep } from './replay.ts';
import { describeCall, readerTurns } from './transcript.ts';

/*
 * One dialogue as a picture for a ticket: its messages, tool calls with the guard's decision, and
 * the findings that broke, drawn as an SVG (every text escaped, so nothing in it is markup).
 */

const WIDTH = 760;
const PAD = 20;
const LINE = 18;
/** An average character's width at the picture's font size, for wrapping without a browser. */
const CHAR = 7.2;
const WRAP = Math.floor((WIDTH - 2 * PAD - 24) / CHAR);

const PALETTES = {
  light: {
    bg: '#ffffff',
    text: '#1b1f24',
    muted: '#5b6472',
    agent: '#eef0ff',
    user: '#f3f4f6',
    bad: '#c62828',
    good: '#0f8a5f',
  },
  dark: {
    bg: '#16191f',
    text: '#e5e8ec',
    muted: '#a0a8b5',
    agent: '#262a4d',
    user: '#1d2129',
    bad: '#ff7b72',
    good: '#3fd19b',
  },
} as const;

/** Breaks text into lines of at most `width` characters, at spaces where it can. */
export function wrapText(text: string, width: number = WRAP): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      let rest = word;
      while (rest.length > width) {
        if (line !== '') lines.push(line);
        line = '';
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
      if (line === '') line = rest;
      else if (line.length + 1 + rest.length <= width) line += ` ${rest}`;
      else {
        lines.push(line);
        line = rest;
      }
    }
    lines.push(line);
  }
  return lines;
}

interface Block {
  readonly fill: string | null;
  readonly lines: readonly {
    readonly text: string;
    readonly colour: string;
    readonly bold?: boolean;
  }[];
}

/**
 * The dialogue (up to and including `upTo`, the whole of it by default) as an SVG picture: a title,
 * each message under who said it, each tool call with the guard's decision, the findings that broke
 * and how it ended. Long dialogues make a tall picture; nothing is cut.
 */
export function dialogueToSvg(
  replay: Replay,
  options: { readonly theme: 'light' | 'dark'; readonly title: string; readonly upTo?: number },
): string {
  const colours = PALETTES[options.theme];
  const name = readerTurns(replay.transcript.messages);
  const upTo = options.upTo ?? replay.steps.length - 1;
  const blocks: Block[] = [
    { fill: null, lines: [{ text: options.title, colour: colours.text, bold: true }] },
  ];
  const shown = (step: ReplayStep) => step.index <= upTo;
  for (const step of replay.steps.filter(shown)) {
    if (step.kind === 'message' && step.message) {
      const agent = step.message.speaker === 'agent';
      const body = step.message.text === '' ? '(no words: it called a tool)' : step.message.text;
      blocks.push({
        fill: agent ? colours.agent : colours.user,
        lines: [
          {
            text: `${agent ? 'Agent' : 'Customer'} · ${name(step.turn)}`,
            colour: colours.muted,
            bold: true,
          },
          ...wrapText(body).map((text) => ({ text, colour: colours.text })),
        ],
      });
    } else if (step.kind === 'call' && step.call) {
      const guard = step.call.guard;
      const refused = guard?.allowed === false;
      blocks.push({
        fill: null,
        lines: [
          ...wrapText(`→ ${describeCall(step.call)}`).map((text) => ({
            text,
            colour: colours.text,
          })),
          {
            text: refused
              ? `Refused by ${guard.rule ?? 'the guard'}${guard.policy === undefined ? '' : ` (${guard.policy})`}`
              : guard
                ? 'Allowed'
                : 'No guard decision logged',
            colour: refused ? colours.bad : colours.good,
          },
        ],
      });
    } else if (step.kind === 'ending' && replay.ending) {
      blocks.push({
        fill: null,
        lines: wrapText(`Ended: ${replay.ending.detail}`).map((text) => ({
          text,
          colour: colours.muted,
        })),
      });
    }
  }
  const broken = replay.findings.filter((f) => f.step <= upTo && findingState(f.item) === 'broken');
  for (const { item } of broken) {
    blocks.push({
      fill: null,
      lines: wrapText(
        `✗ ${item.id}${item.policy === undefined ? '' : ` (${item.policy})`}: ${item.detail}`,
      ).map((text) => ({ text, colour: colours.bad })),
    });
  }

  const parts: string[] = [];
  let y = PAD;
  for (const block of blocks) {
    const height = block.lines.length * LINE + (block.fill ? 10 : 0);
    if (block.fill)
      parts.push(
        `<rect x="${PAD}" y="${y}" width="${WIDTH - 2 * PAD}" height="${height}" rx="8" fill="${block.fill}"/>`,
      );
    let lineY = y + (block.fill ? 5 : 0) + LINE - 4;
    for (const line of block.lines) {
      const weight = line.bold ? ' font-weight="600"' : '';
      parts.push(
        `<text x="${PAD + 12}" y="${lineY}" fill="${line.colour}"${weight} xml:space="preserve">${escapeXml(line.text)}</text>`,
      );
      lineY += LINE;
    }
    y += height + 8;
  }
  const height = y + PAD;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="${colours.bg}"/>`,
    ...parts,
    '</svg>',
  ].join('\n');
}
