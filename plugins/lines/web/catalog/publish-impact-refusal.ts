import { isApiRequestError } from '@atrium/sdk';
import { asRecord, str } from './api-shared.js';

/**
 * A publish refused because it would break what another module built on this product (rules) is a
 * 409 with code `publish_impact` and the list in `impact` (problem body or an error's `meta`). The
 * screen lists it and offers to publish anyway, which sends `acknowledgeImpact`.
 */
export interface PublishImpactEntry {
  source: string;
  subject: string;
  message: string;
}

export function publishImpact(error: unknown): PublishImpactEntry[] {
  if (!isApiRequestError(error)) return [];
  const body = asRecord(error.body);
  const raw = Array.isArray(body.impact)
    ? body.impact
    : error.errors.map((e) => asRecord(e.meta).impact).find((i) => Array.isArray(i));
  if (!Array.isArray(raw)) return [];
  return raw.map(asRecord).map((r) => ({
    source: str(r.source) ?? '',
    subject: str(r.subject) ?? '',
    message: str(r.message) ?? '',
  }));
}
