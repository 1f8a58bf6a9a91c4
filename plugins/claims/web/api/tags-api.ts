import type { ApiClient } from '@atrium/sdk';
import { useLookup } from './claims-api.js';
import { text, type Flat } from './jsonapi.js';
import { PATHS } from './paths.js';

/**
 * Tags on claims and exposures (Tag Maintenance keeps them). A tag's level is `attributes.level`:
 * `claim` tags go on claims only, `exposure` tags on exposures only, a tag without a level on
 * either. A product's own tags (product relationship) apply to that product's claims only. Saving
 * replaces the whole list: `PATCH …/relationships/tags/` with the tag ids (spec "Tags: PATCH
 * relationships on claim or exposure with tag id list").
 */
export type TagLevel = 'claim' | 'exposure';

export const TAG_PATHS = {
  claim: (id: string) => PATHS.claimTags(id),
  exposure: (id: string) => `${PATHS.exposure(id)}relationships/tags/`,
} as const;

/** Every tag (expired ones too: a record may still carry one, and its label must show). */
export function useTags() {
  return useLookup(PATHS.tags);
}

export const tagLevelOf = (tag: Flat): TagLevel | null => {
  const level = (tag.attributes as Record<string, unknown> | null | undefined)?.level;
  return level === 'claim' || level === 'exposure' ? level : null;
};

/** Tags that may be added at this level for this product: active, of the level (or none), global or the product's. */
export function selectableTags(tags: Flat[], level: TagLevel, productId: string | null | undefined): Flat[] {
  return tags.filter((tag) => {
    if (tag.expired) return false;
    const tagLevel = tagLevelOf(tag);
    if (tagLevel && tagLevel !== level) return false;
    const product = tag.product_id;
    return product == null || (!!productId && String(product) === String(productId));
  });
}

export const tagLabel = (tag: Flat) => text(tag.label) || text(tag.name);

export async function saveTags(api: ApiClient, level: TagLevel, id: string, tagIds: string[]): Promise<string[]> {
  const document = await api.patch<{ data: { id: string }[] }>(
    TAG_PATHS[level](id),
    { data: tagIds.map((tagId) => ({ type: 'tag', id: tagId })) },
    { jsonApi: true },
  );
  return (document.data ?? []).map((t) => String(t.id));
}
