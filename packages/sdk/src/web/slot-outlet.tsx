import { Suspense } from 'react';
import type { SlotRef } from './slot-ref.js';
import { useSlotContributions } from './plugin-host.js';

/**
 * Where a screen offers a slot: renders every contribution registered for `slot` (first-party
 * components, and the third-party plugin runtime of `plugins/ui-plugins`), each with the slot's
 * typed context. The screen that owns the slot decides what the context may do (its callbacks go
 * through the screen's own save path), so a contribution can do nothing the user could not.
 * Contributions may be lazy components: they load on first use, showing nothing meanwhile.
 */
export function SlotOutlet<C>({ slot, context }: { slot: SlotRef<C>; context: C }) {
  const contributions = useSlotContributions(slot);
  return (
    <Suspense fallback={null}>
      {contributions.map(({ pluginId, item }) => {
        const Component = item.component;
        return <Component key={`${pluginId}:${item.id}`} context={context} />;
      })}
    </Suspense>
  );
}
