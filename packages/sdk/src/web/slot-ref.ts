/**
 * Typed extension points. A slot's id names where it sits (`quote:risk-edit:button-row`) and carries
 * a version: when the context a slot passes to its contributions changes shape, the owner bumps the
 * version and contributions written against the old shape stop matching instead of crashing.
 */
export interface SlotRef<Context = unknown> {
  readonly kind: 'slot-ref';
  /** `area:screen:place`, lowercase words joined by '-', at least two ':'-separated parts. */
  readonly id: string;
  readonly version: number;
  /** `id@version`: what registries key contributions by. */
  readonly key: string;
  /** Phantom member so that SlotRef<A> and SlotRef<B> are different types; never set at run time. */
  readonly __context?: Context;
}

const SLOT_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*(?::[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

export function createSlotRef<Context>(id: string, options: { version?: number } = {}): SlotRef<Context> {
  if (!SLOT_ID.test(id)) {
    throw new Error(`Slot id '${id}' must look like 'area:screen:place' (lowercase words joined by '-').`);
  }
  const version = options.version ?? 1;
  if (!Number.isInteger(version) || version < 1) throw new Error(`Slot '${id}' version must be a positive integer.`);
  return Object.freeze({ kind: 'slot-ref' as const, id, version, key: `${id}@${version}` });
}
