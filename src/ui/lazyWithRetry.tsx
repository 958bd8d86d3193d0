import type { ComponentType, LazyExoticComponent } from 'react';
import { createContext, lazy, useContext } from 'react';

/** How many times the user has asked the nearest error boundary to try again. */
export const RetryAttempt = createContext(0);

/**
 * Like `React.lazy`, but each retry of the enclosing error boundary (see `RetryAttempt`) starts a
 * fresh download: React.lazy alone would rethrow its first failure forever. Within one attempt
 * the result is cached, so a failed download is reported once, not retried in a loop.
 */
export function lazyWithRetry<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const byAttempt = new Map<number, LazyExoticComponent<ComponentType<P>>>();
  function componentFor(attempt: number) {
    let component = byAttempt.get(attempt);
    if (!component) {
      component = lazy(() => load().then((c) => ({ default: c })));
      byAttempt.set(attempt, component);
    }
    return component;
  }
  function Retryable(props: P) {
    const Current = componentFor(useContext(RetryAttempt));
    return <Current {...props} />;
  }
  return Retryable;
}
