import { describe, expect, it } from 'vitest';
import { StandaloneQuickInputService } from './standaloneQuickInputService.ts';
import { DiffEditorWidget } from './diffEditorWidget.ts';

describe('stubs of Monaco parts left out of the build', () => {
  it('throw a clear error when created, also through a subclass as Monaco makes one', () => {
    class StandaloneDiffEditor extends DiffEditorWidget {}
    expect(() => new StandaloneDiffEditor()).toThrow(
      "Monaco's diff editor is left out of PolicyLab's build (scripts/vite/monacoStubs.js)",
    );
  });

  it('let Monaco create the quick input service at start-up, and throw on any use', () => {
    const service = new StandaloneQuickInputService();
    expect(() => service.pick()).toThrow(/Monaco's quick input .* is left out/);
    expect(() => service.currentQuickInput).toThrow(/is left out/);
  });
});
