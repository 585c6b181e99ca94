import { ConfigError, helpText, loadConfig } from './config';
import type { RunningServer } from './server';
import { prefetchPgliteWasm } from './store/pglite-wasm';

/**
 * `npm start`: start the sync server with settings from flags and env, print
 * where it listens and how to authenticate, and shut down cleanly on
 * SIGTERM/SIGINT.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`folio: ${err.message}\n\n${helpText()}`);
      process.exit(2);
    }
    throw err;
  }
  if (config.help) {
    console.log(helpText());
    return;
  }
  // The embedded database's wasm starts compiling before the server's modules load (they are
  // imported dynamically for that reason), so most of its compile overlaps theirs: ~75 ms off a start
  // here, measured against the same build compiling after the imports.
  if (!config.databaseUrl) prefetchPgliteWasm();
  const { startServer } = await import('./server');
  // Handlers go in before anything is printed: a supervisor may send SIGTERM as soon as it sees the
  // banner, and without a listener Node's default action kills the process on the spot.
  const running: { server?: RunningServer } = {};
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`\n${signal}: shutting down`);
    (running.server ? running.server.close() : Promise.resolve()).then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const server = await startServer(config);
  running.server = server;
  // A signal during start-up: close what just started.
  if (closing) {
    await server.close();
    return;
  }
  const storage = config.databaseUrl
    ? `PostgreSQL (${new URL(config.databaseUrl).host})`
    : `PGlite in ${config.dataDir}`;
  console.log(`Folio sync server listening on ${server.url} (public URL ${server.ctx.urls.root})`);
  console.log(`Storage: ${storage}`);
  console.log(`API: ${server.ctx.urls.api('')}   reference: ${server.ctx.urls.root}/reference`);
  const methods = [
    ...(config.oidcIssuer ? [config.oidcLabel] : []),
    ...(config.emailSignIn ? [`an email link${config.smtpUrl ? '' : ' (logged here: no SMTP set)'}`] : []),
    'SAML SSO once an organization adds its IdP',
    'an API token',
  ];
  console.log(`Web app: ${server.ctx.urls.app('/')} (sign in with ${methods.join(', ')})`);
  if (server.admin.tokenFile && server.admin.token) {
    console.log(
      `\nInstance admin created. Its API token (shown once, also saved to ${server.admin.tokenFile}):\n\n  ${server.admin.token}\n`,
    );
  } else if (config.adminToken) {
    console.log('Authenticate with the token from FOLIO_ADMIN_TOKEN.');
  } else {
    console.log(
      `Authenticate with the admin token saved in ${config.dataDir}/admin-token at first start, or create one: npm run folio -- token create --user <id>`,
    );
  }
  console.log(
    'Send it as "Authorization: Bearer <token>". Example: curl -H "Authorization: Bearer $TOKEN" ' +
      server.ctx.urls.api('/user'),
  );
}

main().catch((err) => {
  console.error('folio: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
