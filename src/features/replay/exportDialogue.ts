import type { SimEvent } from '../../core/index.ts';
import type { Replay } from '../../core/index.ts';
import { dialogueJson, dialogueMarkdown, dialogueToSvg } from '../../core/index.ts';
import { svgToPng } from '../../ui/picture.ts';
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

/** Saves the dialogue up to its step as a PNG picture, for a ticket. */
export async function downloadDialoguePicture(
  replay: Replay,
  options: { readonly theme: 'light' | 'dark'; readonly title: string; readonly upTo: number },
): Promise<void> {
  const png = await svgToPng(dialogueToSvg(replay, options));
  downloadFile(png, fileName(replay.dialogue, 'png'), 'image/png');
}
