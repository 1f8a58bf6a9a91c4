/**
 * Where the Help modal and the Resources menu point. Build-time values (VITE_*) so each carrier's
 * build names its own help site; the defaults keep a development build usable.
 */
const env = import.meta.env;

export const CLASSIC_PRODUCT = env.VITE_CLASSIC_PRODUCT || 'atrium';

export const supportLinks = {
  helpSite: env.VITE_HELP_SITE_URL || 'https://help.atrium.example',
  communityForum: env.VITE_COMMUNITY_FORUM_URL || 'https://community.atrium.example',
  /** Optional: the menu shows the labs feedback link only when it is configured. */
  labsFeedback: env.VITE_LABS_FEEDBACK_URL || null,
  supportTools: `/${CLASSIC_PRODUCT}/misc/support_tools`,
  outstandingTickets: `/${CLASSIC_PRODUCT}/misc/support_tickets`,
  setupForDemo: `/${CLASSIC_PRODUCT}/misc/smore_setup`,
} as const;

/** The last two Resources entries exist only in the newer generation of the app. */
export const NEW_GENERATION_ENABLED = env.VITE_NEW_GENERATION !== 'false';

/** A preview build's pull-request number, shown as a tag in the top bar. */
export const PR_NUMBER = env.VITE_PR_NUMBER?.trim() || null;

/** Only http(s) addresses become links; anything else a carrier record holds is shown as text. */
export function safeExternalUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}
