/**
 * How the host learns about sessions. The identity module (sign-in, tokens, refresh) installs the
 * real provider with `installSessionProvider`; until it does, nobody can sign in and every
 * protected page sends the user to /login. The host never invents a session itself.
 */
export interface AuthUser {
  /** Stable subject id. */
  id: string;
  username: string;
  name: string;
  email: string;
  /** Names of the roles the user may act in. */
  roles: string[];
}

export interface AuthSession {
  accessToken: string;
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number;
  user: AuthUser;
}

export interface SessionProvider {
  /**
   * Called before every navigation: returns the current session (renewed when it is about to
   * expire) or null when there is none. Throws when a refresh was needed and failed.
   */
  refresh(current: AuthSession | null): Promise<AuthSession | null>;
  /** Ends the session wherever it lives (identity service, local storage). */
  signOut(current: AuthSession | null): Promise<void>;
}

/** The provider in place until identity lands: there is never a session. */
export const noSessionProvider: SessionProvider = {
  async refresh() {
    return null;
  },
  async signOut() {},
};
