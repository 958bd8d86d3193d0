import type { SimEvent } from '../../core/index.ts';
import { dialogueJson, dialogueMarkdown } from '../../core/index.ts';
import { downloadFile } from '../../ui/download.ts';

/** A file name made of a dialogue id: letters, digits, dots and dashes only. */
function fileName(dialogue: string, extension: string): string {
  const safe = dialogue.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'dialogue';
  return `${safe}.${extension}`;
}

/** Saves one dialogue as Markdown (for a ticket) or as JSON, through the browser's download. */
export function downloadDialogue(
  events: readonly SimEvent[],
  dialogue: string,
  format: 'markdown' | 'json',
): void {
  const [text, type, extension] =
    format === 'markdown'
      ? [dialogueMarkdown(events, dialogue), 'text/markdown', 'md']
      : [JSON.stringify(dialogueJson(events, dialogue), null, 2), 'application/json', 'json'];
  downloadFile(text, fileName(dialogue, extension), type);
}
