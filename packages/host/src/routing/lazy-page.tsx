import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { LazyComponentLoader } from '@atrium/sdk';

/**
 * A page's code loads the first time it renders, i.e. after the guard let the navigation through.
 * The spec allows a chunk 120 s; past that the load fails and the route's error page offers a reload
 * instead of a spinner that never ends.
 */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkLoadTimeoutError extends Error {
  constructor() {
    super('The page took too long to load.');
    this.name = 'ChunkLoadTimeoutError';
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadTimeoutError()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A page's module once loaded (or its load under way), per loader. */
interface PageLoad {
  promise: Promise<{ default: ComponentType }>;
  module?: { default: ComponentType };
}

const loads = new WeakMap<LazyComponentLoader, PageLoad>();

function load(loader: LazyComponentLoader): PageLoad {
  let entry = loads.get(loader);
  if (!entry) {
    const started: PageLoad = {
      promise: withTimeout(loader(), CHUNK_LOAD_TIMEOUT_MS) as Promise<{ default: ComponentType }>,
    };
    started.promise.then(
      (module) => (started.module = module),
      // The lazy page that renders it shows the failure (the route's error page).
      () => undefined,
    );
    loads.set(loader, started);
    entry = started;
  }
  return entry;
}

/**
 * Starts loading a page's code without rendering it: the route guard calls it for the page it is
 * about to let through, so the chunk downloads while the session and access checks are answered
 * instead of after them (one round trip less before the first paint of every page).
 */
export function preloadPage(loader: LazyComponentLoader): void {
  load(loader);
}

const pages = new WeakMap<LazyComponentLoader, LazyExoticComponent<ComponentType>>();

/**
 * One lazy component per loader, so revisiting a page reuses the loaded module. A module already
 * loaded (preloaded by the guard) is handed over synchronously: React then renders the page at
 * once instead of suspending for a tick and committing the fallback first.
 */
export function lazyPage(loader: LazyComponentLoader): LazyExoticComponent<ComponentType> {
  let page = pages.get(loader);
  if (!page) {
    page = lazy(() => {
      const entry = load(loader);
      const loaded = entry.module;
      if (!loaded) return entry.promise;
      const settled: PromiseLike<{ default: ComponentType }> = {
        then: (onLoaded) => {
          onLoaded?.(loaded);
          return settled as never;
        },
      };
      // React only calls `then` (its types ask for a whole Promise).
      return settled as Promise<{ default: ComponentType }>;
    });
    pages.set(loader, page);
  }
  return page;
}
