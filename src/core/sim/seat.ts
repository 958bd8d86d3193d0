import type { ChatEngine, ChatRequest, ChatResponse, ChatToolCall } from '../models/chat.ts';
import { checkResponse } from '../models/checked.ts';
import { ModelError } from '../models/errors.ts';
import { PERSON } from './events.ts';
import { CHAT_OPENS } from './prompts.ts';
import { USER_STOP } from './prompts.ts';

/*
 * Play mode: a person takes one seat of a dialogue (the customer's or the agent's) and a model
 * plays the other. The person's seat is a ChatEngine like any other, so the dialogue runs through
 * the same code as a simulation (guard rules at every tool call, the same log, the same checks);
 * each turn of that seat waits for the person instead of a model.
 */

/** A turn waiting for the person: what a model in this seat would have been sent. */
export interface SeatTurn {
  /** Counts the seat's turns from 1, so an answer cannot land on a later turn by mistake. */
  readonly id: number;
  readonly request: ChatRequest;
}

/** What the person answers: words, and (in the agent's seat) tool calls with JSON arguments. */
export interface SeatReply {
  readonly text: string;
  readonly toolCalls?: readonly { readonly name: string; readonly arguments: string }[];
}

/** A person's seat in a dialogue. */
export interface HumanSeat {
  /** Give this to the dialogue as the seat's engine. */
  readonly engine: ChatEngine;
  /** The turn waiting for an answer, if any. */
  pending(): SeatTurn | undefined;
  /**
   * Answers the waiting turn. An answer the dialogue could not use (an unknown tool, arguments
   * that are not JSON or break the tool's parameters, words where a tool call is required) is
   * refused with the reason and the turn stays open, so nothing the person wrote is lost.
   */
  answer(turnId: number, reply: SeatReply): { ok: true } | { ok: false; problem: string };
}

/**
 * Makes a person's seat. `onTurn` hears each turn as it opens and `undefined` when it closes
 * (answered, or cancelled with the dialogue).
 */
export function createHumanSeat(onTurn: (turn: SeatTurn | undefined) => void): HumanSeat {
  let count = 0;
  let calls = 0;
  let waiting:
    { turn: SeatTurn; resolve: (response: ChatResponse) => void; detach: () => void } | undefined;

  const engine: ChatEngine = {
    chat: (request, options) =>
      new Promise<ChatResponse>((resolve, reject) => {
        const signal = options?.signal;
        if (signal?.aborted) {
          reject(new ModelError('aborted', 'The dialogue was stopped.'));
          return;
        }
        const turn: SeatTurn = { id: ++count, request };
        const onAbort = () => {
          if (waiting?.turn !== turn) return;
          waiting = undefined;
          onTurn(undefined);
          reject(new ModelError('aborted', 'The dialogue was stopped.'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting = {
          turn,
          resolve,
          detach: () => signal?.removeEventListener('abort', onAbort),
        };
        onTurn(turn);
      }),
  };

  return {
    engine,
    pending: () => waiting?.turn,
    answer: (turnId, reply) => {
      const open = waiting;
      if (open?.turn.id !== turnId)
        return { ok: false, problem: 'That turn is over; the dialogue has moved on.' };
      const toolCalls: ChatToolCall[] = (reply.toolCalls ?? []).map((call) => ({
        id: `person-call-${++calls}`,
        name: call.name,
        arguments: call.arguments,
      }));
      const text = reply.text.trim();
      if (text === '' && toolCalls.length === 0)
        return { ok: false, problem: 'Write a message first.' };
      const response: ChatResponse = {
        message: {
          role: 'assistant',
          content: text,
          ...(toolCalls.length > 0 && { toolCalls }),
        },
        finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        usage: { inputTokens: 0, outputTokens: 0 },
        model: PERSON,
      };
      const check = checkResponse(open.turn.request, response);
      if (!check.ok) {
        calls -= toolCalls.length;
        return { ok: false, problem: check.problem.message };
      }
      waiting = undefined;
      open.detach();
      onTurn(undefined);
      open.resolve(response);
      return { ok: true };
    },
  };
}

/** The customer's last message: the words (if any) and the signal that ends the dialogue. */
export function lastWords(text: string): SeatReply {
  return { text: `${text.trim()} ${USER_STOP}` };
}

/**
 * What the customer's seat is asked beyond the dialogue itself: the question a guard rule with
 * `fallback: ask_user` puts to the customer before a call. An ordinary turn ends with the agent's
 * latest message (or the chat opening), which the dialogue already shows, so it has none.
 */
export function seatQuestion(
  turn: SeatTurn,
  lastAgentText: string | undefined,
): string | undefined {
  const last = turn.request.messages.at(-1);
  if (last?.role !== 'user' || last.content === CHAT_OPENS) return undefined;
  return last.content === lastAgentText ? undefined : last.content;
}
