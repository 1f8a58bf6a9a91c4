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

const pages = new WeakMap<LazyComponentLoader, LazyExoticComponent<ComponentType>>();

/** One lazy component per loader, so revisiting a page reuses the loaded module. */
export function lazyPage(loader: LazyComponentLoader): LazyExoticComponent<ComponentType> {
  let page = pages.get(loader);
  if (!page) {
    page = lazy(() => withTimeout(loader(), CHUNK_LOAD_TIMEOUT_MS) as Promise<{ default: ComponentType }>);
    pages.set(loader, page);
  }
  return page;
}
