import { useLayoutEffect, useRef } from 'react';

/**
 * Text that grows as an answer streams in, drawn by appending only what is new to the page (a
 * long answer is never laid out again whole for each piece). Text that does not continue what
 * is shown replaces it.
 */
export function StreamingText({ text }: { text: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  const shown = useRef('');
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    const before = shown.current;
    if (text.length >= before.length && text.startsWith(before)) {
      if (text.length > before.length) node.append(text.slice(before.length));
    } else {
      node.textContent = text;
    }
    shown.current = text;
  }, [text]);
  return <p className="play-text" ref={ref} hidden={text === ''} />;
}
