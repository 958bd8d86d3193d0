import { createRng } from '../graph/random.ts';
import type { MetaValue, TensorSpec } from './ggufFile.ts';
import { ALIGN, serialize } from './ggufFile.ts';

/**
 * Tiny random-weight GGUF models for tests: a llama-architecture file that llama.cpp (and so
 * wllama) loads and runs, with a Qwen2.5-style ChatML template that supports tools. No weights
 * ship in git; tests write one in milliseconds.
 */
export interface TinyGgufOptions {
  readonly seed: number;
  /** Width of the residual stream. */
  readonly embd: number;
  readonly layers: number;
  readonly heads: number;
  /** Key/value heads (grouped-query attention); divides `heads`. */
  readonly kvHeads: number;
  /** Width of the feed-forward layer. */
  readonly ff: number;
  /** Store the matrices as F16 (half the bytes); vectors stay F32. */
  readonly f16?: boolean;
  /**
   * Zero every block's output so greedy decoding follows a fixed token-to-token table that opens
   * `<tool_call>` after the prompt's final newline and closes it again: with a grammar
   * (`tool_choice: 'required'`) the answer is a real, parsed tool call.
   */
  readonly scripted?: true;
  /** Training context written to the file; defaults to 4096. */
  readonly contextLength?: number;
}

/** About 120k parameters, 0.5 MB: loads in well under a second. */
export const TINY_GGUF: TinyGgufOptions = {
  seed: 1,
  embd: 64,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  ff: 96,
};

/** About 25M parameters in F16 (51 MB): big enough for meaningful speed figures. */
export const SMALL_GGUF: TinyGgufOptions = {
  seed: 1,
  embd: 512,
  layers: 8,
  heads: 8,
  kvHeads: 4,
  ff: 1536,
  f16: true,
};

const WORDS = (
  'the a an is are was be to of and in on at for with by from as it this that you we they he ' +
  'she not no yes ok hello hi thanks please sorry help can will would may must should do does ' +
  'did have has get set book order cancel refund pay change check find show tell ask flight ' +
  'seat ticket bag hotel room date time day week price fee card account user agent policy rule ' +
  'tool call name city weather paris tokyo london rain sun cold warm good bad new old one two ' +
  'three first last more less all any some each other only just now then here there what when'
).split(' ');

/** Special tokens, in id order; the model's end-of-turn token is `<|im_end|>`. */
const SPECIALS = [
  '<unk>',
  '<s>',
  '</s>',
  '<|im_start|>',
  '<|im_end|>',
  '<tool_call>',
  '</tool_call>',
] as const;
const [UNK, BOS, EOS_S, IM_END, TOOL_OPEN, TOOL_CLOSE] = [0, 1, 2, 4, 5, 6];
const BYTE0 = SPECIALS.length;
const SPACE = '\u2581';

/** Qwen2.5's template, trimmed to what tests need: system, tools, tool calls and results. */
const CHAT_TEMPLATE = `{%- if tools %}{{- '<|im_start|>system\\n' }}{%- if messages[0]['role'] == 'system' %}{{- messages[0]['content'] }}{%- else %}{{- 'You are a helpful assistant.' }}{%- endif %}{{- "\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}{%- for tool in tools %}{{- "\\n" }}{{- tool | tojson }}{%- endfor %}{{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n</tool_call><|im_end|>\\n" }}{%- else %}{%- if messages[0]['role'] == 'system' %}{{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}{%- else %}{{- '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}{%- endif %}{%- endif %}{%- for message in messages %}{%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}{%- elif message.role == "assistant" %}{{- '<|im_start|>' + message.role }}{%- if message.content %}{{- '\\n' + message.content }}{%- endif %}{%- for tool_call in message.tool_calls %}{%- if tool_call.function is defined %}{%- set tool_call = tool_call.function %}{%- endif %}{{- '\\n<tool_call>\\n{"name": "' }}{{- tool_call.name }}{{- '", "arguments": ' }}{{- tool_call.arguments | tojson }}{{- '}\\n</tool_call>' }}{%- endfor %}{{- '<|im_end|>\\n' }}{%- elif message.role == "tool" %}{%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}{{- '<|im_start|>user' }}{%- endif %}{{- '\\n<tool_response>\\n' }}{{- message.content }}{{- '\\n</tool_response>' }}{%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}{{- '<|im_end|>\\n' }}{%- endif %}{%- endif %}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}`;

/**
 * Writes a GGUF v3 file holding a random llama model with a byte-fallback SPM vocabulary
 * (specials, 256 byte tokens, about 100 words). Deterministic: the same options give the same
 * bytes. Output rows of bytes >= 0x80 and of `<unk> <s> </s> <|im_start|>` push their logits far
 * down, so sampled text is always valid UTF-8 and never opens a turn.
 */
export function writeTinyGguf(options: TinyGgufOptions): Uint8Array {
  const { embd, layers, heads, kvHeads, ff } = options;
  if (embd % heads !== 0 || heads % kvHeads !== 0 || (embd / heads) % 2 !== 0) {
    throw new Error('embd must split into heads of even width, and heads into kvHeads groups');
  }
  const tokens = vocabulary();
  const vocab = tokens.length;
  const rng = createRng(options.seed);
  const uniform = (std: number) => (rng.next() * 2 - 1) * std * Math.sqrt(3);
  const scripted = options.scripted === true;
  const half = options.f16 === true;
  const kvWidth = (embd / heads) * kvHeads;
  // Channel 0 of every embedding is a constant no block writes to: after the final norm it is
  // a fixed positive input, so an output row's weight there acts as a per-token bias.
  const channel0 = Math.sqrt(embd - 1);
  const embeddings = new Float32Array(vocab * embd);
  for (let t = 0; t < vocab; t++) {
    embeddings[t * embd] = channel0;
    for (let j = 1; j < embd; j++) embeddings[t * embd + j] = uniform(1);
  }
  const biasScale = 1 / Math.sqrt((embd - 1) / 2); // one unit of row weight at channel 0, in logits
  const matrix =
    (std: number, zeroRow0 = false) =>
    (row: number, out: Float32Array) => {
      for (let j = 0; j < out.length; j++) out[j] = zeroRow0 && row === 0 ? 0 : uniform(std);
    };
  const ones = (_row: number, out: Float32Array) => out.fill(1);
  const zeros = (_row: number, out: Float32Array) => out.fill(0);
  const table = scripted ? scriptTable() : [];
  const outputRow = (row: number, out: Float32Array) => {
    const bias = biasOf(row, scripted);
    const std = bias <= -30 ? 0 : (scripted ? 1 : 2.5) / (0.71 * Math.sqrt(embd - 1));
    for (let j = 1; j < embd; j++) out[j] = std === 0 ? 0 : uniform(std);
    out[0] = bias * biasScale;
    for (const [from, to, logit] of table) {
      if (to !== row) continue;
      const at = from * embd;
      let norm = 0;
      for (let j = 1; j < embd; j++) norm += (embeddings[at + j] ?? 0) ** 2;
      const scale = (logit * 1.41) / norm;
      for (let j = 1; j < embd; j++) out[j] = (out[j] ?? 0) + scale * (embeddings[at + j] ?? 0);
    }
  };

  const tensors: TensorSpec[] = [
    {
      name: 'token_embd.weight',
      shape: [embd, vocab],
      half,
      fill: (row, out) => {
        out.set(embeddings.subarray(row * embd, row * embd + embd));
      },
    },
  ];
  const inStd = 1 / Math.sqrt(embd);
  for (let b = 0; b < layers; b++) {
    const p = `blk.${b}.`;
    tensors.push(
      { name: `${p}attn_norm.weight`, shape: [embd], half: false, fill: ones },
      { name: `${p}attn_q.weight`, shape: [embd, embd], half, fill: matrix(inStd) },
      { name: `${p}attn_k.weight`, shape: [embd, kvWidth], half, fill: matrix(inStd) },
      { name: `${p}attn_v.weight`, shape: [embd, kvWidth], half, fill: matrix(inStd) },
      {
        name: `${p}attn_output.weight`,
        shape: [embd, embd],
        half,
        fill: scripted ? zeros : matrix(inStd / 2, true),
      },
      { name: `${p}ffn_norm.weight`, shape: [embd], half: false, fill: ones },
      { name: `${p}ffn_gate.weight`, shape: [embd, ff], half, fill: matrix(inStd) },
      { name: `${p}ffn_up.weight`, shape: [embd, ff], half, fill: matrix(inStd) },
      {
        name: `${p}ffn_down.weight`,
        shape: [ff, embd],
        half,
        fill: scripted ? zeros : matrix(1 / Math.sqrt(ff) / 2, true),
      },
    );
  }
  tensors.push(
    { name: 'output_norm.weight', shape: [embd], half: false, fill: ones },
    { name: 'output.weight', shape: [embd, vocab], half, fill: outputRow },
  );

  const metadata: [string, MetaValue][] = [
    ['general.architecture', { kind: 'str', value: 'llama' }],
    ['general.name', { kind: 'str', value: `tiny-${scripted ? 'scripted-' : ''}${options.seed}` }],
    ['general.alignment', { kind: 'u32', value: ALIGN }],
    ['llama.context_length', { kind: 'u32', value: options.contextLength ?? 4096 }],
    ['llama.embedding_length', { kind: 'u32', value: embd }],
    ['llama.block_count', { kind: 'u32', value: layers }],
    ['llama.feed_forward_length', { kind: 'u32', value: ff }],
    ['llama.attention.head_count', { kind: 'u32', value: heads }],
    ['llama.attention.head_count_kv', { kind: 'u32', value: kvHeads }],
    ['llama.rope.dimension_count', { kind: 'u32', value: embd / heads }],
    ['llama.attention.layer_norm_rms_epsilon', { kind: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { kind: 'u32', value: vocab }],
    ['tokenizer.ggml.model', { kind: 'str', value: 'llama' }],
    ['tokenizer.ggml.tokens', { kind: 'strs', value: tokens }],
    ['tokenizer.ggml.scores', { kind: 'f32s', value: tokens.map((_, i) => scoreOf(i)) }],
    ['tokenizer.ggml.token_type', { kind: 'i32s', value: tokens.map((_, i) => typeOf(i)) }],
    ['tokenizer.ggml.bos_token_id', { kind: 'u32', value: BOS }],
    ['tokenizer.ggml.eos_token_id', { kind: 'u32', value: IM_END }],
    ['tokenizer.ggml.unknown_token_id', { kind: 'u32', value: UNK }],
    ['tokenizer.ggml.padding_token_id', { kind: 'u32', value: EOS_S }],
    ['tokenizer.ggml.add_bos_token', { kind: 'bool', value: false }],
    ['tokenizer.ggml.add_eos_token', { kind: 'bool', value: false }],
    // Otherwise "assistant" in the generation prompt becomes "▁assistant" and every grammar
    // request fails to initialise its sampler.
    ['tokenizer.ggml.add_space_prefix', { kind: 'bool', value: false }],
    ['tokenizer.chat_template', { kind: 'str', value: CHAT_TEMPLATE }],
  ];
  return serialize(metadata, tensors);
}

/** Token texts in id order: specials, `<0x00>`…`<0xFF>`, `▁`, then `▁word` for each word. */
function vocabulary(): string[] {
  const bytes = Array.from(
    { length: 256 },
    (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`,
  );
  return [...SPECIALS, ...bytes, SPACE, ...WORDS.map((w) => SPACE + w)];
}

/** llama.cpp token types: 3 control, 4 user-defined (rendered in text), 6 byte, 1 normal. */
function typeOf(id: number): number {
  if (id === TOOL_OPEN || id === TOOL_CLOSE) return 4;
  if (id < BYTE0) return id === UNK ? 2 : 3;
  return id < BYTE0 + 256 ? 6 : 1;
}

/**
 * A fixed logit offset per token, in logits: never a turn opener or invalid UTF-8 (random bytes
 * >= 0x80 crash llama-server's JSON layer), seldom a control character or whitespace (so JSON
 * stays compact), words over stray bytes, a pull toward `"` so JSON strings end, and (unless
 * scripted) a push away from ending the turn, so free text runs to `max_tokens`.
 */
function biasOf(id: number, scripted: boolean): number {
  if (id === IM_END) return scripted ? 0 : -4;
  if (id < BYTE0) return id === TOOL_OPEN || id === TOOL_CLOSE ? 0 : -60;
  if (id >= BYTE0 + 256) return 2;
  const b = id - BYTE0;
  if (b >= 0x80) return -60;
  if (b === 0x0a || b === 0x20) return -3;
  if (b < 0x20 || b === 0x7f) return -30;
  if (b === 0x22) return scripted ? 5 : 2;
  return 0;
}

function scoreOf(id: number): number {
  return id < BYTE0 + 256 ? 0 : -(id - BYTE0 - 256);
}

/**
 * The scripted model's preferences, [from, to, logit]: where the grammar blocks the first choice
 * the next one wins, so the call opens, its arguments close after one string value, and the turn
 * ends after `</tool_call>`.
 */
function scriptTable(): [number, number, number][] {
  const byte = (c: string) => BYTE0 + c.charCodeAt(0);
  return [
    [byte('\n'), TOOL_OPEN, 20],
    [byte('\n'), TOOL_CLOSE, 14],
    [byte('\n'), byte('}'), 8],
    [TOOL_OPEN, byte('\n'), 20],
    [byte('"'), byte('}'), 20],
    [byte('}'), byte('\n'), 20],
    [TOOL_CLOSE, IM_END, 20],
    [byte('>'), IM_END, 20],
  ];
}
