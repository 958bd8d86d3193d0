import { describe, expect, it } from 'vitest';
import { DismissStack } from './dismissStack.ts';

describe('DismissStack', () => {
  it('closes a dialog before a panel, whichever opened first, and the latest of a kind first', () => {
    const stack = new DismissStack();
    const closed: string[] = [];
    const layer = (name: string, modal: boolean) =>
      stack.push({
        modal,
        dismiss: () => {
          closed.push(name);
        },
      });
    const dialog = layer('dialog', true);
    layer('panel', false);
    const second = layer('second panel', false);
    expect(stack.dismissTop()).toBe(true);
    dialog();
    stack.dismissTop();
    second();
    stack.dismissTop();
    expect(closed).toEqual(['dialog', 'second panel', 'panel']);
  });

  it('has nothing to close once every layer is removed', () => {
    const stack = new DismissStack();
    const remove = stack.push({ modal: false, dismiss: () => undefined });
    remove();
    remove();
    expect(stack.top()).toBeUndefined();
    expect(stack.dismissTop()).toBe(false);
  });
});
