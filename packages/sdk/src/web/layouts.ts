/** The spec's five route layouts ("Layout and navigation"); any other value is an error. */
export const LAYOUTS = [
  'default',
  'default--no-container-padding',
  'full-page',
  'full-page--no-container-padding',
  'component-only',
] as const;

export type Layout = (typeof LAYOUTS)[number];

const layoutSet: ReadonlySet<string> = new Set(LAYOUTS);

export function isLayout(value: unknown): value is Layout {
  return typeof value === 'string' && layoutSet.has(value);
}

export class InvalidLayoutError extends Error {
  constructor(
    readonly layout: unknown,
    readonly routeName?: string,
  ) {
    super(
      `Invalid layout ${JSON.stringify(layout)}${routeName ? ` on route '${routeName}'` : ''}: expected one of ${LAYOUTS.join(', ')}.`,
    );
    this.name = 'InvalidLayoutError';
  }
}

/** Throws for anything but the five layouts; `undefined` is allowed (the route then renders by name only). */
export function assertLayout(layout: unknown, routeName?: string): asserts layout is Layout | undefined {
  if (layout !== undefined && !isLayout(layout)) throw new InvalidLayoutError(layout, routeName);
}
