import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a test server received, as the tests assert on it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON; the raw text when it is not JSON; undefined when empty. */
  readonly body: unknown;
  /** The connection closed before the answer was complete (the client went, or a scripted cut). */
  closedEarly: boolean;
}

/** A tool call a scripted reply makes; string arguments are sent as written (malformed on purpose). */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments: string | Readonly<Record<string, unknown>>;
  readonly id?: string;
}

/** How a content reply is delivered. */
export interface Delivery {
  /** Wait this long before answering. */
  readonly delayMs?: number;
  /** Wait this long between streamed chunks. */
  readonly chunkDelayMs?: number;
  /** Send this many streamed chunks, then destroy the socket. */
  readonly cutAfterChunks?: number;
  /** Send this many streamed chunks, then end the response cleanly (no finish, no [DONE]). */
  readonly endAfterChunks?: number;
  /** Leave usage out of the answer. */
  readonly noUsage?: boolean;
  /** Send this usage object in place of the true counts (a hostile provider's). */
  readonly usage?: Readonly<Record<string, unknown>>;
  /** After the answer's first chunks, stream this text again and again until the client leaves. */
  readonly forever?: string;
}

/** A reply that answers: text, tool calls, or both. */
export type ContentReply =
  | ({ readonly text: string; readonly toolCalls?: undefined } & Delivery)
  | ({ readonly toolCalls: readonly ScriptedToolCall[]; readonly text?: string } & Delivery);

/** What a test server answers to one model call. */
export type ServerReply =
  | ContentReply
  /** An HTTP error in the provider's own error shape. */
  | { readonly status: number; readonly retryAfter?: string; readonly delayMs?: number }
  /** The provider's real "context too long" 400. */
  | { readonly contextTooLong: true; readonly delayMs?: number }
  /** Accept the request and never answer. */
  | { readonly hang: true };

/** Replies taken in order (then the default assistant), or a function (undefined = default). */
export type Script =
  readonly ServerReply[] | ((request: RecordedRequest) => ServerReply | undefined);

/** How to start a test server. */
export interface ServerOptions {
  readonly script?: Script;
  /** Answer CORS preflights and send Access-Control-* headers (default true). */
  readonly cors?: boolean;
  /** Answer 401 unless the request carries this key (Bearer, x-api-key or api-key). */
  readonly requireKey?: string;
  /** The models it serves; when given, any other model gets the provider's 404. */
  readonly models?: readonly string[];
}

/** A running protocol test server. */
export interface TestServer {
  /** The base URL to give the engine (the SDK's `baseURL`). */
  readonly url: string;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** Every request received, preflights included, in order. */
  readonly requests: RecordedRequest[];
  /** Replaces the script (and what is left of a queue). */
  setScript(script: Script | undefined): void;
  /** Stops the server, cutting hung and open connections. */
  close(): Promise<void>;
}

/** What a protocol module does with a request that passed CORS and the key check. */
export interface Protocol {
  /** The part of the URL the SDK adds itself, e.g. `/v1` for OpenAI. */
  readonly basePath: string;
  /** An error body in the provider's shape. */
  error(status: number, message: string): unknown;
  /** What the provider says to a wrong key (the presented key is echoed, as some servers do). */
  authMessage(presented: string): string;
  handle(request: RecordedRequest, res: ServerResponse, next: () => ServerReply | undefined): void;
}

/** Response headers that let a page on another origin call us, including under COEP. */
function corsHeaders(req: IncomingMessage): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': req.headers.origin ?? '*',
    Vary: 'Origin',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers':
      req.headers['access-control-request-headers'] ??
      'authorization, x-api-key, api-key, anthropic-version, anthropic-beta, anthropic-dangerous-direct-browser-access, content-type, x-stainless-arch, x-stainless-lang, x-stainless-os, x-stainless-package-version, x-stainless-retry-count, x-stainless-runtime, x-stainless-runtime-version, x-stainless-timeout',
    'Access-Control-Expose-Headers': 'retry-after, retry-after-ms, x-request-id, request-id',
    'Access-Control-Max-Age': '600',
    ...(req.headers['access-control-request-private-network'] === 'true' && {
      'Access-Control-Allow-Private-Network': 'true',
    }),
  };
}

/** Starts a server for `protocol` on a free port of 127.0.0.1. */
export async function startServer(protocol: Protocol, options: ServerOptions): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  let script = options.script;
  let queue = Array.isArray(script) ? [...(script as readonly ServerReply[])] : [];
  const next = (request: RecordedRequest) => {
    if (typeof script === 'function') return script(request);
    return queue.shift();
  };
  const server = createServer((req, res) => {
    const cors = options.cors ?? true;
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (cors)
      for (const [name, value] of Object.entries(corsHeaders(req))) res.setHeader(name, value);
    void readBody(req).then((text) => {
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0] ?? '/',
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [
            k,
            Array.isArray(v) ? v.join(', ') : (v ?? ''),
          ]),
        ),
        body: parseBody(text),
        closedEarly: false,
      };
      requests.push(request);
      res.on('close', () => {
        if (!res.writableFinished) request.closedEarly = true;
      });
      if (cors && request.method === 'OPTIONS') {
        res.writeHead(204).end();
        return;
      }
      const presented = presentedKey(request.headers);
      if (options.requireKey !== undefined && presented !== options.requireKey) {
        sendJson(res, 401, protocol.error(401, protocol.authMessage(presented ?? '')));
        return;
      }
      const model = (request.body as { model?: unknown } | undefined)?.model;
      if (options.models && typeof model === 'string' && !options.models.includes(model)) {
        sendJson(res, 404, protocol.error(404, notFoundMessage(model)));
        return;
      }
      protocol.handle(request, res, () => next(request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${protocol.basePath}`,
    origin,
    requests,
    setScript(replacement) {
      script = replacement;
      queue = Array.isArray(replacement) ? [...(replacement as readonly ServerReply[])] : [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** The message both providers' 404s carry for a model they do not serve. */
export const notFoundMessage = (model: string) =>
  `The model \`${model}\` does not exist or you do not have access to it.`;

function presentedKey(headers: Readonly<Record<string, string>>): string | undefined {
  const bearer = /^Bearer (.*)$/i.exec(headers.authorization ?? '')?.[1];
  return bearer ?? headers['x-api-key'] ?? headers['api-key'];
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      resolve(Buffer.concat(parts).toString('utf8'));
    });
    req.on('error', () => {
      resolve(Buffer.concat(parts).toString('utf8'));
    });
  });
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Sends a JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * Carries out the parts of a reply every protocol shares: the delay, a hang, and HTTP errors.
 * Returns the content reply to send, or undefined when the reply has been dealt with.
 */
export async function settle(
  reply: ServerReply,
  res: ServerResponse,
  protocol: Protocol,
  context: { readonly model: string; readonly contextTooLong: string },
): Promise<ContentReply | undefined> {
  if ('hang' in reply) return undefined;
  if (reply.delayMs !== undefined) await wait(reply.delayMs);
  if (res.destroyed) return undefined;
  if ('contextTooLong' in reply) {
    sendJson(res, 400, protocol.error(400, context.contextTooLong));
    return undefined;
  }
  if ('status' in reply) {
    const message =
      reply.status === 404
        ? notFoundMessage(context.model)
        : (STATUS_TEXT[reply.status] ?? 'Error.');
    const headers: Record<string, string> =
      reply.retryAfter === undefined ? {} : { 'Retry-After': reply.retryAfter };
    sendJson(res, reply.status, protocol.error(reply.status, message), headers);
    return undefined;
  }
  return reply;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Invalid request.',
  401: 'Invalid authentication.',
  403: 'You are not allowed to use this model.',
  429: 'Rate limit reached for requests. Please try again later.',
  500: 'The server had an error while processing your request.',
  502: 'Bad gateway.',
  503: 'The service is temporarily unavailable.',
  529: 'Overloaded',
};

/** Opens a server-sent event stream. */
export function startStream(res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  res.flushHeaders();
}

/** Writes SSE chunks in order, pausing or cutting the socket as the reply asks. */
export async function writeStream(
  res: ServerResponse,
  chunks: readonly string[],
  delivery: Delivery,
): Promise<void> {
  for (const [index, chunk] of chunks.entries()) {
    if (index > 0 && delivery.chunkDelayMs !== undefined) await wait(delivery.chunkDelayMs);
    if (res.destroyed) return;
    if (index === delivery.cutAfterChunks) {
      res.socket?.destroy();
      return;
    }
    if (index === delivery.endAfterChunks) break;
    res.write(chunk);
  }
  res.end();
}

/**
 * Writes `first`, then `next()` every `delayMs` (5 unless given) for as long as the client
 * stays: a stream that never ends.
 */
export async function writeForever(
  res: ServerResponse,
  first: readonly string[],
  next: () => string,
  delayMs = 5,
): Promise<void> {
  for (const chunk of first) res.write(chunk);
  for (;;) {
    await wait(delayMs);
    if (res.destroyed || res.writableEnded) return;
    res.write(next());
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A rough token count (four characters a token), for usage figures. */
export const estimateTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/** Text cut into word pieces, as a model streams it. */
export const textPieces = (text: string): string[] => text.match(/\S+\s*|\s+/g) ?? [];

/** JSON text cut into small fragments, as a model streams tool-call arguments. */
export function jsonFragments(json: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += 6) pieces.push(json.slice(i, i + 6));
  return pieces;
}

/** The arguments text of a scripted tool call. */
export const argumentsText = (call: ScriptedToolCall): string =>
  typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
