import { useEffect, useSyncExternalStore } from 'react';

/** A module fetched the first time something needs it, then available synchronously. */
export interface LazyModule<T> {
  load(): Promise<T>;
  current(): T | undefined;
  subscribe(listener: () => void): () => void;
}

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  return {
    load() {
      loading ??= importer().then(
        (module) => {
          value = module;
          for (const listener of listeners) listener();
          return module;
        },
        (error: unknown) => {
          // A failed chunk (offline, new deployment) is fetched again the next time it is needed.
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    current: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The module once it has arrived, else undefined; asks for it when `wanted`. The caller renders a
 * plain fallback meanwhile (and for good if the chunk cannot load), so nothing waits on the network.
 * Only callers that want the module re-render when it arrives.
 */
export function useLazyModule<T>(module: LazyModule<T>, wanted: boolean): T | undefined {
  const value = useSyncExternalStore(module.subscribe, () => (wanted ? module.current() : undefined));
  useEffect(() => {
    if (wanted && !value) module.load().catch(() => undefined);
  }, [module, wanted, value]);
  return value;
}
