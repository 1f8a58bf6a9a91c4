/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Pull-request number of a preview build; shown as a tag in the top bar. */
  readonly VITE_PR_NUMBER?: string;
  readonly VITE_HELP_SITE_URL?: string;
  readonly VITE_COMMUNITY_FORUM_URL?: string;
  readonly VITE_LABS_FEEDBACK_URL?: string;
  /** Product segment of the classic portal's URLs (`/{product}/policies/information`). */
  readonly VITE_CLASSIC_PRODUCT?: string;
  /** 'false' when the newer generation is disabled (hides outstanding tickets and Setup for Demo). */
  readonly VITE_NEW_GENERATION?: string;
}
