// The few internal modules of monaco-editor 0.57.0 the stubs import, which ship without types.
declare module 'monaco-editor/platform/instantiation/common/instantiation' {
  /** A service identifier, also the parameter decorator that injects the service. */
  export function createDecorator(serviceId: string): (...args: unknown[]) => void;
}
declare module 'monaco-editor/platform/instantiation/common/extensions' {
  /** Registers the class Monaco's instantiation service creates for `id` (1: on first use). */
  export function registerSingleton(
    id: (...args: unknown[]) => void,
    ctor: new () => unknown,
    instantiation: 0 | 1,
  ): void;
}
