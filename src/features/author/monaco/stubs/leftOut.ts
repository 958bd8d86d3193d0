/**
 * The error a stub throws when Monaco reaches a part that PolicyLab's build leaves out
 * (scripts/vite/monacoStubs.js lists them). Reaching one is a bug: a feature that needs it was
 * added without taking the stub out.
 */
export function leftOut(part: string): Error {
  return new Error(
    `${part} is left out of PolicyLab's build (scripts/vite/monacoStubs.js): remove its stub to use it.`,
  );
}

/**
 * A class standing in for one of Monaco's: it can be extended and handed to Monaco's
 * instantiation service like the real one, and creating it throws `leftOut(part)`.
 */
export function leftOutClass(part: string): new (...args: unknown[]) => object {
  // A class that only throws from its constructor is the whole point here.
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class
  return class {
    constructor() {
      throw leftOut(part);
    }
  };
}
