import type { ErrorInfo, ReactNode } from 'react';
import { Component } from 'react';
import { EmptyState } from '../ui/EmptyState.tsx';
import { RetryAttempt } from '../ui/lazyWithRetry.tsx';

/** Browsers word a failed dynamic import differently; these are Chromium's, Firefox's, Safari's. */
function isDownloadFailure(error: Error): boolean {
  return /dynamically imported module|error loading dynamically|importing a module script failed/i.test(
    error.message,
  );
}

interface Props {
  title: string;
  children: ReactNode;
}

/**
 * Keeps a failure inside one pane: the pane shows what went wrong and a retry button, and the
 * rest of the page keeps working. A lazily loaded editor that fails to download lands here too.
 */
export class PaneErrorBoundary extends Component<Props, { error: Error | null; attempt: number }> {
  override state = { error: null as Error | null, attempt: 0 };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`The ${this.props.title} pane failed:`, error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error === null) {
      return <RetryAttempt value={this.state.attempt}>{this.props.children}</RetryAttempt>;
    }
    return (
      <div role="alert" className="pane-error">
        <EmptyState icon="alert" title={`The ${this.props.title} pane stopped working`}>
          {isDownloadFailure(error) && (
            <p>Its code could not be downloaded. Check your connection, then try again.</p>
          )}
          <p className="pane-error-message">{error.message}</p>
          <p>Your project is safe; the other panes still work.</p>
          <button
            type="button"
            className="button"
            onClick={() => {
              this.setState((state) => ({ error: null, attempt: state.attempt + 1 }));
            }}
          >
            Try again
          </button>
        </EmptyState>
      </div>
    );
  }
}
