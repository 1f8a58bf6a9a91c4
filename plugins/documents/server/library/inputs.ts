import { inArray } from 'drizzle-orm';
import { ApiError, type Queryable } from '@atrium/sdk/server';
import { asset, component } from '../tables.js';

/**
 * What a template reads besides its data (docs/documents.md, "Components and assets"): the
 * components it imports (`"/components/<name>.typ"`, and theirs in turn) and the assets it shows
 * (`"/assets/<name>"`). Only those are sent to the render child. A production document keeps the
 * components' sources and the assets' SHA-256, so a re-render reads what the first render read.
 */
export interface RenderInputs {
  components: Record<string, string>;
  assets: Record<string, string>;
}
export type RenderFile = { path: string; base64: string };

const COMPONENT_REF = /["']\/components\/([a-z][a-z0-9-]*)\.typ["']/g;
const ASSET_REF = /["']\/assets\/([A-Za-z0-9][A-Za-z0-9._-]*)["']/g;
/** A component's file: the helper functions are imported for it, as the prelude does for templates. */
const componentFile = (name: string, text: string): RenderFile => ({
  path: `/components/${name}.typ`,
  base64: Buffer.from(`#import "/atrium/helpers.typ": formatCurrency, formatDate, pluralize\n${text}`).toString(
    'base64',
  ),
});
const refs = (source: string, pattern: RegExp) => [...source.matchAll(pattern)].map((m) => m[1]!);

export async function gatherInputs(
  db: Queryable,
  source: string,
): Promise<{ inputs: RenderInputs; files: RenderFile[] }> {
  const components: Record<string, string> = {};
  const assetNames = new Set(refs(source, ASSET_REF));
  let wanted = [...new Set(refs(source, COMPONENT_REF))];
  // Components may import components; follow them (a name already read is not read again).
  for (let depth = 0; wanted.length > 0 && depth < 10; depth++) {
    const rows = await db.select().from(component).where(inArray(component.name, wanted));
    for (const row of rows) {
      components[row.name] = row.source;
      for (const name of refs(row.source, ASSET_REF)) assetNames.add(name);
    }
    wanted = [...new Set(rows.flatMap((r) => refs(r.source, COMPONENT_REF)))].filter((n) => !(n in components));
  }
  const assetRows = assetNames.size
    ? await db
        .select()
        .from(asset)
        .where(inArray(asset.name, [...assetNames]))
    : [];
  const files: RenderFile[] = [
    ...Object.entries(components).map(([name, text]) => componentFile(name, text)),
    ...assetRows.map((a) => ({ path: `/assets/${a.name}`, base64: a.contentBase64 })),
  ];
  return {
    inputs: { components, assets: Object.fromEntries(assetRows.map((a) => [a.name, a.sha256])) },
    files,
  };
}

/** The files of a stored production document: its components' sources as rendered, its assets by SHA-256. */
export async function filesOf(db: Queryable, inputs: RenderInputs | null | undefined): Promise<RenderFile[]> {
  const components = inputs?.components ?? {};
  const assets = inputs?.assets ?? {};
  const names = Object.keys(assets);
  const rows = names.length ? await db.select().from(asset).where(inArray(asset.name, names)) : [];
  for (const name of names) {
    const row = rows.find((r) => r.name === name);
    if (!row || row.sha256 !== assets[name]) {
      throw new ApiError(422, `The asset ${name} this document was rendered with no longer exists.`);
    }
  }
  return [
    ...Object.entries(components).map(([name, text]) => componentFile(name, text)),
    ...rows.map((a) => ({ path: `/assets/${a.name}`, base64: a.contentBase64 })),
  ];
}
