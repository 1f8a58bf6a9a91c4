/**
 * The sign-in texts of the spec's error catalogue, word for word (including its spelling of
 * "ocurred"), and the page texts of "Sign-in and account".
 */
export const SIGN_IN_MESSAGES = {
  /** A failure with no more specific message (network, server error, unexpected answer). */
  loginError: 'There was an error attempting to log in',
  /** The legacy-contact migration found nobody (or failed): the migration failure default. */
  usernameNotFound: "We're sorry, but this username could not be found.",
  passwordResetRequired: 'For security reasons, please reset your password.',
  unknownStatus: 'Unknown status',
  /** Signing in worked but finishing it did not; the user goes back to the login page. */
  somethingWentWrong: "We're sorry, but something went wrong while signing in.",
  mfaMethodMissing:
    'Your user does not have a phone number or other authentication method set up. Please contact an administrator.',
  unknownError: 'An unknown error has ocurred. Please get in contact with your administrator if this message persists.',
} as const;

export const FORCE_RESET_TEXT = 'For security reasons, you will need to reset your password.';
export const RESET_PASSWORD_HEADER = 'Reset your Password';
export const OIDC_NONCE_MISMATCH = "Local state's nonce does not match received value";

/** Where a user lands after signing in when nothing else was asked for. */
export const DEFAULT_POST_LOGIN_PATH = '/?pageReload=true';

/** Role picker texts ("Layout and navigation"). */
export const rolePromptText = (product: string) => `Please select a role to use for your ${product} session:`;
export const PREVIOUS_ROLE_UNAVAILABLE = 'Your previous role is unavailable. Please select another role to proceed:';
export const NO_ROLE_ASSIGNMENTS = 'You do not have any role assignments. Please contact the system administrator.';
export const ROLE_FETCH_ERROR = 'unable to fetch user roles';
/** The product named in the role prompt. */
export const PRODUCT_NAME = 'Atrium';
