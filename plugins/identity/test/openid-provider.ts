import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID Provider (the `oidc-provider` package) on a loopback port, for tests. Its login and
 * consent pages are replaced by a handler that signs in whichever account the test named last, so
 * that a test can walk the whole authorization code flow with plain HTTP requests.
 */
export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The account the next interaction signs in. */
  signInAs(account: TestAccount | null): void;
  /**
   * Follows the authorization URL through the provider (login, consent) to the redirect back to
   * the client and returns that redirect's query parameters.
   */
  authorize(authorizationUrl: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export const TEST_REDIRECT_URI = 'http://127.0.0.1:5173/login/idpresponse';

export async function startOpenIdProvider(): Promise<TestOpenIdProvider> {
  let current: TestAccount | null = null;
  const accounts = new Map<string, TestAccount>();
  let handler: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) | null =
    null;
  const server: Server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'atrium-test-client';
  const clientSecret = 'atrium-test-client-secret-with-enough-entropy';

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const configuration: Configuration = {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-idp', alg: 'RS256', use: 'sig' }] as never },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [TEST_REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      phone: ['phone_number', 'phone_number_verified'],
    },
    scopes: ['openid', 'email', 'profile', 'phone'],
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['atrium-test-cookie-key'] },
    pkce: { required: () => true },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ ...account }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  handler = (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (!current) {
          await provider.interactionFinished(req, res, {
            error: 'access_denied',
            error_description: 'The user cancelled.',
          });
          return;
        }
        accounts.set(current.sub, current);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: current.sub } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const grant = new provider.Grant({ accountId: current.sub, clientId });
        grant.addOIDCScope('openid email profile phone');
        await provider.interactionFinished(
          req,
          res,
          { consent: { grantId: await grant.save() } },
          { mergeWithLastSubmission: true },
        );
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
    })();
  };

  return {
    issuer,
    clientId,
    clientSecret,
    redirectUri: TEST_REDIRECT_URI,
    signInAs(account) {
      current = account;
    },
    async authorize(authorizationUrl) {
      const cookies = new Map<string, string>();
      let url = authorizationUrl;
      for (let hop = 0; hop < 20; hop++) {
        if (url.startsWith(TEST_REDIRECT_URI)) return Object.fromEntries(new URL(url).searchParams);
        const response = await fetch(url, {
          redirect: 'manual',
          headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
        });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const eq = pair!.indexOf('=');
          cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
        }
        const location = response.headers.get('location');
        if (!location)
          throw new Error(`The provider answered ${response.status} without a redirect: ${await response.text()}`);
        url = new URL(location, url).href;
      }
      throw new Error('Too many redirects at the provider.');
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
