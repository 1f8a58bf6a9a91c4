import { identitySession } from './session/identity-session.js';
import type { HostSessionProvider, SessionHost } from './session/session-client.js';

/**
 * The identity module's session provider. The host finds this file by name
 * (`plugins/<id>/web/session-provider.ts`, see packages/host/src/auth/plugin-session-provider.ts),
 * hands it a narrow view of its auth store, and calls `refresh` before every navigation.
 */
export default function createIdentitySessionProvider(host: SessionHost): HostSessionProvider {
  identitySession.attach(host);
  return identitySession.provider;
}
