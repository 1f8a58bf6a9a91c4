import type { Queryable } from '@atrium/sdk/server';

/**
 * Hooks run when a draft version is about to be published, inside the publishing transaction.
 * The rating helper registers the known-answer gate here; a hook refuses by throwing an ApiError
 * (e.g. 400 with the differences in `meta`), which rolls the status change back.
 */
export interface BeforePublishContext {
  /** The publishing transaction. */
  tx: Queryable;
  productId: number;
  versionId: number;
  /** The publisher has seen the publish-impact list and publishes anyway. */
  acknowledgeImpact?: boolean;
}

export type BeforePublishHook = (context: BeforePublishContext) => Promise<void>;

const hooks: BeforePublishHook[] = [];

/** Registers a hook; returns a function that removes it again. Registering the same function twice is a no-op. */
export function registerBeforePublish(hook: BeforePublishHook): () => void {
  if (!hooks.includes(hook)) hooks.push(hook);
  return () => {
    const index = hooks.indexOf(hook);
    if (index >= 0) hooks.splice(index, 1);
  };
}

/** Runs every registered hook in registration order; the first refusal stops publishing. */
export async function runBeforePublish(context: BeforePublishContext): Promise<void> {
  for (const hook of [...hooks]) await hook(context);
}
