/**
 * What Escape can close, innermost first. A modal layer (a dialog) is always inside any other
 * layer; among layers of the same kind the one opened last is innermost. The shell closes the
 * innermost on Escape, and only once none is left restores a maximised pane.
 */
export interface DismissLayer {
  /** A modal dialog: inside every non-modal layer, whenever it opened. */
  readonly modal: boolean;
  readonly dismiss: () => void;
}

/** The open layers, in the order they opened. */
export class DismissStack {
  private layers: { layer: DismissLayer; order: number }[] = [];
  private opened = 0;

  /** Adds a layer; returns what removes it (when it closes by any means). */
  push(layer: DismissLayer): () => void {
    const entry = { layer, order: this.opened++ };
    this.layers.push(entry);
    return () => {
      this.layers = this.layers.filter((e) => e !== entry);
    };
  }

  /** The innermost open layer, if any. */
  top(): DismissLayer | undefined {
    let best: { layer: DismissLayer; order: number } | undefined;
    for (const e of this.layers) {
      const rank = (x: typeof e) => (x.layer.modal ? 1 : 0);
      if (!best || rank(e) > rank(best) || (rank(e) === rank(best) && e.order > best.order))
        best = e;
    }
    return best?.layer;
  }

  /** Closes the innermost layer; false when none is open. */
  dismissTop(): boolean {
    const top = this.top();
    top?.dismiss();
    return top !== undefined;
  }
}
