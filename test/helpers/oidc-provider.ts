import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID provider for the sign-in tests: `oidc-provider` (an
 * independent, certified implementation) on 127.0.0.1, with one confidential
 * client and a fixed set of accounts. Its development login and consent
 * pages take any login name (the account id) with any password.
 */

/** An account of the test provider: its claims (no `email` makes a provider that shares none). */
export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by login name; tests may add more at any time. */
  accounts: Map<string, TestAccount>;
  /** Registers the client's redirect URI (known once the Folio server listens) and starts answering (503 before). */
  register(redirectUri: string): void;
  close(): Promise<void>;
}

/** Starts the provider's HTTP server (port known at once); it answers once `register` is called. */
export async function startOidcProvider(accounts: Record<string, TestAccount> = {}): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'folio-test';
  const clientSecret = 'folio-test-secret-0123456789abcdef';
  const store = new Map(Object.entries(accounts));
  // Until `register`, the provider is down: every request gets a 503 (as a provider still starting would answer).
  let handler: ((req: IncomingMessage, res: ServerResponse) => unknown) | undefined;
  server.on('request', (req, res) => {
    if (handler) return void handler(req, res);
    res.writeHead(503).end();
  });
  return {
    issuer,
    clientId,
    clientSecret,
    accounts: store,
    register(redirectUri) {
      const configuration: Configuration = {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        cookies: { keys: ['folio-test-oidc-cookie-key'] },
        pkce: { required: () => true },
        // Fixed lifetimes (the defaults print a notice on every first use).
        ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx, id) {
          const account = store.get(id);
          if (!account) return undefined;
          return { accountId: id, claims: async () => ({ sub: id, ...account }) };
        },
      };
      const provider = new Provider(issuer, configuration);
      // Its development pages warn on every request that they are for development only: true here.
      provider.on('server_error', (_ctx, err) => console.error('oidc-provider:', err));
      handler = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
