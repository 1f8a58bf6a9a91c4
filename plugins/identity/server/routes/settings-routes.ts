import type { AtriumRouter } from '@atrium/sdk/server';
import { mfaSettingsBody, passwordPolicyBody, passwordPolicyResponse } from '../../shared/identity-schemas.js';
import type { IdentityServices } from '../identity-services.js';
import { readMfaSettings, readPasswordPolicy, writeMfaSettings, writePasswordPolicy } from '../identity-settings.js';

const tags = ['identity'];

/** GET and PUT settings/password-policy, GET and PUT settings/mfa-settings (MfaConfiguration). */
export function settingsRoutes(router: AtriumRouter, services: IdentityServices) {
  router.get(
    '/settings/password-policy',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The password policy: minimum length, character classes, history. Public: reset pages need it.',
        tags,
        response: { 200: passwordPolicyResponse },
      },
    },
    async () => readPasswordPolicy(services.db),
  );

  router.put(
    '/settings/password-policy',
    {
      config: { access: { resource: 'identity:settings', action: 'update' } },
      schema: {
        summary: 'Replaces the password policy; it applies to every password set from now on.',
        tags,
        security: [{ bearer: [] }],
        body: passwordPolicyBody,
        response: { 200: passwordPolicyResponse },
      },
    },
    async (request) => {
      await writePasswordPolicy(services.db, request.body, services.clock.now());
      return readPasswordPolicy(services.db);
    },
  );

  router.get(
    '/settings/mfa-settings',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Whether MFA is off, optional or required for everyone.',
        tags,
        security: [{ bearer: [] }],
        response: { 200: mfaSettingsBody },
      },
    },
    async () => readMfaSettings(services.db),
  );

  router.put(
    '/settings/mfa-settings',
    {
      config: { access: { resource: 'identity:settings', action: 'update' } },
      schema: {
        summary: 'Sets MFA off, optional or required (required: users without a method get SMS to their phone).',
        tags,
        security: [{ bearer: [] }],
        body: mfaSettingsBody,
        response: { 200: mfaSettingsBody },
      },
    },
    async (request) => {
      await writeMfaSettings(services.db, request.body, services.clock.now());
      return readMfaSettings(services.db);
    },
  );
}
