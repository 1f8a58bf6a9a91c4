/**
 * Completion of component and asset names inside the paths templates import them by:
 * `#import "/components/` offers `signature-block.typ` …, `#image("/assets/` offers
 * `atrium-logo.svg` …. Pure, so it is tested without Monaco.
 */
export interface LibraryCompletion {
  label: string;
  kind: 'component' | 'asset';
  detail: string;
  /** Where the name being completed starts (1-based column in the line). */
  startColumn: number;
}

export function libraryCompletions(
  before: string,
  components: readonly { name: string; description: string }[],
  assets: readonly { name: string; mime_type: string }[],
): LibraryCompletion[] {
  const component = /"\/components\/([a-z0-9-]*)$/.exec(before);
  if (component) {
    const partial = component[1]!;
    return components
      .filter((c) => c.name.startsWith(partial))
      .map((c) => ({
        label: `${c.name}.typ`,
        kind: 'component' as const,
        detail: c.description || 'Component',
        startColumn: before.length - partial.length + 1,
      }));
  }
  const asset = /"\/assets\/([^"/\s]*)$/.exec(before);
  if (asset) {
    const partial = asset[1]!;
    return assets
      .filter((a) => a.name.startsWith(partial))
      .map((a) => ({
        label: a.name,
        kind: 'asset' as const,
        detail: a.mime_type,
        startColumn: before.length - partial.length + 1,
      }));
  }
  return [];
}
