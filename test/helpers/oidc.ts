import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { Provider } from 'oidc-provider';

export interface TestAccount {
  email: string;
  verified: boolean;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's signing key (private), to hand-sign tokens it would accept. */
  signingKey: JWK;
  /** Who the next sign-in at the provider is. */
  signInAs(subject: string, account: TestAccount): void;
  /** Runs the code flow as a client of the provider and returns the id_token. */
  idToken(): Promise<string>;
  /** Follows the provider's redirects from `url` until one leaves it; returns that location. */
  follow(url: string): Promise<string>;
  close(): Promise<void>;
}

/** A real OpenID provider (oidc-provider) on loopback that signs in whoever `signInAs` names. */
export async function startTestProvider(sparrowRedirectUri: string): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: 'test-key',
    alg: 'RS256',
    use: 'sig',
  };
  const clientId = 'sparrow-test';
  const clientSecret = randomBytes(16).toString('hex');
  const testRedirect = 'https://test-client.example.test/cb';
  const accounts = new Map<string, TestAccount>();
  let current = 'nobody';
  let provider: Provider | undefined;

  const server: Server = createServer((request, response) => {
    if (provider === undefined) {
      response.statusCode = 503;
      response.end();
      return;
    }
    const active = provider;
    if (request.url?.startsWith('/interaction/')) {
      void (async () => {
        const details = await active.interactionDetails(request, response);
        const grant = new active.Grant({
          accountId: current,
          clientId: String(details.params.client_id),
        });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        await active.interactionFinished(
          request,
          response,
          { login: { accountId: current }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      })().catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
      return;
    }
    active.callback()(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [sparrowRedirectUri, testRedirect],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [signingKey] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-cookie-key'] },
    async findAccount(_ctx, subject) {
      const account = accounts.get(subject);
      if (account === undefined) return undefined;
      return {
        accountId: subject,
        async claims() {
          return {
            sub: subject,
            email: account.email,
            email_verified: account.verified,
            ...(account.name === undefined ? {} : { name: account.name }),
          };
        },
      };
    },
  });

  const jar = new Map<string, string>();
  async function follow(start: string): Promise<string> {
    // A fresh browser each time, so the provider signs in whoever `signInAs` named last.
    jar.clear();
    let url = start;
    for (let hop = 0; hop < 20; hop++) {
      if (!url.startsWith(issuer)) return url;
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const index = pair.indexOf('=');
        jar.set(pair.slice(0, index), pair.slice(index + 1));
      }
      const location = response.headers.get('location');
      if (location === null) {
        throw new Error(`provider answered ${response.status} at ${url}: ${await response.text()}`);
      }
      url = new URL(location, url).toString();
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    signingKey,
    signInAs(subject, account) {
      current = subject;
      accounts.set(subject, account);
    },
    follow,
    async idToken() {
      const verifier = randomBytes(32).toString('base64url');
      const authorize = new URL(`${issuer}/auth`);
      for (const [name, value] of Object.entries({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: testRedirect,
        scope: 'openid email profile',
        state: randomBytes(8).toString('hex'),
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      })) {
        authorize.searchParams.set(name, value);
      }
      const back = new URL(await follow(authorize.toString()));
      const code = back.searchParams.get('code');
      if (code === null) throw new Error(`no code in ${back.toString()}`);
      const token = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: testRedirect,
          code_verifier: verifier,
        }),
      });
      const body = (await token.json()) as { id_token?: string };
      if (body.id_token === undefined) throw new Error(`no id_token: ${JSON.stringify(body)}`);
      return body.id_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
