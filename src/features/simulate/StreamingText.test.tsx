import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StreamingText } from './StreamingText.tsx';

describe('StreamingText', () => {
  it('appends what is new and leaves what is shown in place', () => {
    const { container, rerender } = render(<StreamingText text="Hello" />);
    const paragraph = container.querySelector('p');
    const first = paragraph?.firstChild;
    rerender(<StreamingText text="Hello, world" />);
    rerender(<StreamingText text="Hello, world. Bye." />);
    expect(paragraph?.textContent).toBe('Hello, world. Bye.');
    // The first piece's node is the same one: nothing was laid out again.
    expect(paragraph?.firstChild).toBe(first);
    expect(paragraph?.childNodes).toHaveLength(3);
  });

  it('replaces text that does not continue what is shown', () => {
    const { container, rerender } = render(<StreamingText text="abc" />);
    rerender(<StreamingText text="xyz" />);
    expect(container.querySelector('p')?.textContent).toBe('xyz');
  });
});
