/**
 * Small instruct models that run in the browser (GGUF, Q4_K_M) and whose chat templates call
 * tools: the list the models dialog recommends. Sizes are approximate; the download reports the
 * real one.
 */
export interface CatalogueModel {
  readonly id: string;
  readonly label: string;
  /** A Hugging Face `resolve` URL of the single .gguf file. */
  readonly url: string;
  readonly sizeBytes: number;
  /** The context window to load it with: enough for a simulated dialogue, small enough for RAM. */
  readonly contextSize: number;
  /** One line on when to pick it. */
  readonly note: string;
  /** Fast enough on a CPU (no usable WebGPU) for a dialogue to finish in reasonable time. */
  readonly cpu: boolean;
}

const hf = (repo: string, file: string) => `https://huggingface.co/${repo}/resolve/main/${file}`;

/** The recommended local models, smallest first. */
export const MODEL_CATALOGUE: readonly CatalogueModel[] = [
  {
    id: 'qwen2.5-1.5b-instruct-q4_k_m',
    label: 'Qwen2.5 1.5B Instruct',
    url: hf('Qwen/Qwen2.5-1.5B-Instruct-GGUF', 'qwen2.5-1.5b-instruct-q4_k_m.gguf'),
    sizeBytes: 1_120_000_000,
    contextSize: 8192,
    note: 'Good on CPU; reliable tool calls for its size.',
    cpu: true,
  },
  {
    id: 'qwen3-1.7b-q4_k_m',
    label: 'Qwen3 1.7B',
    url: hf('bartowski/Qwen_Qwen3-1.7B-GGUF', 'Qwen_Qwen3-1.7B-Q4_K_M.gguf'),
    sizeBytes: 1_280_000_000,
    contextSize: 8192,
    note: 'Good on CPU; newer, strong at tools (thinking is switched off).',
    cpu: true,
  },
  {
    id: 'llama-3.2-3b-instruct-q4_k_m',
    label: 'Llama 3.2 3B Instruct',
    url: hf('bartowski/Llama-3.2-3B-Instruct-GGUF', 'Llama-3.2-3B-Instruct-Q4_K_M.gguf'),
    sizeBytes: 2_020_000_000,
    contextSize: 8192,
    note: 'Best with a GPU; slow but usable on a fast CPU.',
    cpu: false,
  },
  {
    id: 'qwen2.5-3b-instruct-q4_k_m',
    label: 'Qwen2.5 3B Instruct',
    url: hf('Qwen/Qwen2.5-3B-Instruct-GGUF', 'qwen2.5-3b-instruct-q4_k_m.gguf'),
    sizeBytes: 2_100_000_000,
    contextSize: 8192,
    note: 'Needs a GPU; a better agent or judge than the 1.5B.',
    cpu: false,
  },
  {
    id: 'qwen3-4b-q4_k_m',
    label: 'Qwen3 4B',
    url: hf('Qwen/Qwen3-4B-GGUF', 'Qwen3-4B-Q4_K_M.gguf'),
    sizeBytes: 2_500_000_000,
    contextSize: 8192,
    note: 'Needs a GPU with 4 GB free; the strongest here.',
    cpu: false,
  },
];

/** The catalogue entry for a URL, if it is one. */
export function catalogueModel(url: string): CatalogueModel | undefined {
  return MODEL_CATALOGUE.find((m) => m.url === url);
}
