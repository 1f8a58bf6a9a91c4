import { z } from 'zod';

/**
 * Request and response shapes of the identity API, shared by the server routes (validation and
 * OpenAPI) and the web client (sign-in machine, My Account forms).
 */
export const IDENTITY_ERROR_CODES = [
  'UserNotFoundException',
  'MFAMethodNotFoundException',
  'NotAuthorizedException',
  'UsernameExistsException',
  'UnknownError',
  'PasswordResetRequiredException',
  'InvalidParameterException',
  'ExpiredCodeException',
  'CodeMismatchException',
  'LimitExceededException',
] as const;
export type IdentityErrorCode = (typeof IDENTITY_ERROR_CODES)[number];

export const username = z.string().trim().min(1).max(320).describe('The e-mail address the user signs in with.');
export const password = z.string().min(1).max(256);
const oneTimeCode = z.string().trim().min(1).max(16).describe('The code from the SMS, e-mail or authenticator app.');
const challengeSession = z.string().min(1).max(512).describe('The opaque session of the sign-in challenge.');

export const signInBody = z.strictObject({ username, password });
export const newPasswordBody = z.strictObject({ username, session: challengeSession, new_password: password });
export const mfaAnswerBody = z.strictObject({ username, session: challengeSession, code: oneTimeCode });
export const mfaResendBody = z.strictObject({ username, session: challengeSession });
export const forgotPasswordBody = z.strictObject({ username });
export const confirmForgotPasswordBody = z.strictObject({ username, code: oneTimeCode, password });
export const changePasswordBody = z.strictObject({ previous_password: password, proposed_password: password });
export const refreshBody = z.strictObject({ refresh_token: z.string().min(1).max(512) });
export const signOutBody = refreshBody;

export const authenticationResult = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Seconds the access token is valid.'),
  session_expires_at: z.string().describe('When the session ends (session timeout); refresh fails after it.'),
});

export const codeDeliveryDetails = z.object({
  delivery_medium: z.enum(['SMS', 'EMAIL']),
  destination: z.string().describe('Masked phone number or e-mail address.'),
  attribute_name: z.enum(['phone_number', 'email']),
});

export const signInResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('AUTHENTICATED'), authentication_result: authenticationResult }),
  z.object({
    status: z.literal('NEW_PASSWORD_REQUIRED'),
    session: z.string(),
    expires_in: z.number().int(),
    challenge_parameters: z.object({
      user_attributes: z.object({ email: z.string(), name: z.string(), phone_number: z.string().nullable() }),
      required_attributes: z.array(z.string()),
    }),
  }),
  z.object({
    status: z.literal('SMS_MFA'),
    session: z.string(),
    expires_in: z.number().int(),
    challenge_parameters: codeDeliveryDetails,
  }),
  z.object({
    status: z.literal('SOFTWARE_TOKEN_MFA'),
    session: z.string(),
    expires_in: z.number().int(),
    challenge_parameters: z.object({}),
  }),
]);
export type SignInResponse = z.infer<typeof signInResponse>;

export const codeDeliveryResponse = z.object({ code_delivery_details: codeDeliveryDetails });
export const successResponse = z.object({ status: z.literal('SUCCESS') });

export const mfaMethodName = z.enum(['SMS_MFA', 'SOFTWARE_TOKEN_MFA']);
export const sessionUser = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  name: z.string(),
  phone_number: z.string().nullable(),
  phone_number_verified: z.boolean(),
  picture: z.string().nullable(),
  groups: z.array(z.string()).describe('The role names the user holds.'),
  is_employee: z.boolean(),
  is_admin: z.boolean(),
  effective_role: z.string().nullable(),
  updated_at: z.string(),
  mfa: z.object({
    preferred: mfaMethodName.nullable(),
    sms_mfa_enabled: z.boolean(),
    software_token_mfa_enabled: z.boolean(),
    software_token_verified: z.boolean(),
  }),
});

const mfaMethodPreference = z.strictObject({ enabled: z.boolean(), preferred: z.boolean() });
export const mfaPreferenceBody = z.strictObject({
  password: password.describe('The current password: changing a factor asks for it again.'),
  sms_mfa: mfaMethodPreference.optional(),
  software_token_mfa: mfaMethodPreference.optional(),
});

export const associateSoftwareTokenBody = z.strictObject({ password });
export const associateSoftwareTokenResponse = z.object({
  secret_code: z.string().describe('Base32 secret, for typing into the app.'),
  otpauth_uri: z.string().describe('otpauth://totp/… URI to show as a QR code.'),
});
export const verifySoftwareTokenBody = z.strictObject({
  code: oneTimeCode,
  friendly_device_name: z.string().max(100).optional(),
});

export const passwordPolicyResponse = z.object({
  minimum_length: z.number().int(),
  require_lowercase: z.boolean(),
  require_uppercase: z.boolean(),
  require_numbers: z.boolean(),
  require_symbols: z.boolean(),
  password_history_size: z.number().int(),
  temporary_password_validity_days: z.number().int(),
});

/** PUT settings/password-policy: every field of the policy, within the bounds the server enforces. */
export const passwordPolicyBody = z.strictObject({
  minimum_length: z.number().int().min(8).max(128),
  require_lowercase: z.boolean(),
  require_uppercase: z.boolean(),
  require_numbers: z.boolean(),
  require_symbols: z.boolean(),
  password_history_size: z.number().int().min(0).max(24),
  temporary_password_validity_days: z.number().int().min(1).max(90),
});

export const mfaSettingsBody = z.strictObject({ mfa_configuration: z.enum(['off', 'optional', 'required']) });

export const retrieveAllRolesBody = z.strictObject({ login_only: z.boolean().optional() });
export const retrieveAllRolesResponse = z.object({
  success: z.literal(true),
  data: z.array(z.object({ name: z.string() })),
});
export const roleSelectBody = z.strictObject({ effective_role: z.string().trim().min(1).max(200) });
export const roleSelectResponse = z.object({ effective_role: z.string() });

export const NO_ELIGIBLE_ROLE = 'unable to determine effective role: user is not eligible to any role';

// ── External OpenID Connect providers ─────────────────────────────────────────────────────────

const scopeName = z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'A scope is one word of printable characters.');
export const oidcProviderBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  issuer: z.string().trim().max(500).describe('https:// issuer URL (its /.well-known/openid-configuration is read).'),
  client_id: z.string().trim().min(1).max(500),
  client_secret: z.string().min(1).max(1000).nullable().optional().describe('Omit for a public client (PKCE only).'),
  scopes: z
    .array(scopeName)
    .min(1)
    .max(20)
    .refine((scopes) => scopes.includes('openid'), 'The scopes must include openid.')
    .optional()
    .describe('Default: openid email profile phone.'),
  enabled: z.boolean().optional(),
  link_by_email: z
    .boolean()
    .optional()
    .describe("Sign in the local user whose username is the provider's verified e-mail, linking on first use."),
  redirect_uris: z
    .array(z.string().trim().min(1).max(2000))
    .max(20)
    .optional()
    .describe(
      "The redirect URIs registered for this client at the provider (the app's /login/idpresponse on each origin users reach it at); an authorization naming any other is refused. Exact match.",
    ),
});
export const oidcProviderPatchBody = oidcProviderBody.partial();
export const oidcProviderResponse = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  has_client_secret: z.boolean(),
  scopes: z.array(z.string()),
  enabled: z.boolean(),
  link_by_email: z.boolean(),
  redirect_uris: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export const oidcProviderSummaries = z.object({ providers: z.array(z.object({ id: z.string(), name: z.string() })) });
export const oidcAuthorizeBody = z.strictObject({
  provider_id: z.string().min(1).max(100),
  redirect_uri: z
    .string()
    .min(1)
    .max(2000)
    .describe("The page the provider returns to (/login/idpresponse): one of the provider's redirect_uris."),
});
export const oidcAuthorizeResponse = z.object({ authorization_url: z.string(), state: z.string() });
export const oidcCallbackBody = z.strictObject({
  state: z.string().min(1).max(512),
  code: z.string().min(1).max(4096).optional(),
  iss: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});
export const oidcLinkResponse = z.object({ status: z.literal('SUCCESS'), message: z.string() });
