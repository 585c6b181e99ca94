import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config';
import type { Db } from './store/db';
import { migrate } from './store/migrate';
import { ADMIN_TOKEN_LABEL, createUser, issueToken } from './identity/users';
import { mustUseSso } from './identity/accounts';
import { approveDomainFromCli, DomainCommandFailure, isDomainName, listDomainRows } from './cli-domains';
import { migrateBlobsFromCli } from './cli-blobs';

/**
 * `npm run folio -- <command>`: instance administration from a shell — users
 * and their API tokens — on the same database the server uses. Exit codes:
 * 0 success, 1 failure (unknown user, ...), 2 bad usage.
 */

/** Bad usage: the message is followed by the command's help; exit 2. */
class UsageError extends Error {}
/** A well-formed request that cannot be done; exit 1. */
class CliFailure extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  usage: string;
  summary: string;
  options: Options;
  /** Names of the positional arguments, in order (all required). */
  positionals?: string[];
  /** Usage checks that need no database; they run before it is opened. */
  check?(values: Values): void;
  /** Set when the command needs no database (it is then not opened: `run` gets none). */
  noDatabase?: true;
  run(db: Db, values: Values, positionals: string[], config: Config): Promise<void>;
}

/** The database flags every command accepts; they are the server's own settings. */
const DB_OPTIONS: Options = { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' } };
const DB_HELP = [
  'Database (same settings as the server; flags win over the environment):',
  '  --data-dir DIR        FOLIO_DATA_DIR      data folder of the embedded PGlite database (default ./data)',
  '  --database-url URL    FOLIO_DATABASE_URL  postgres://… to use PostgreSQL instead',
  'The embedded database can be opened by one process at a time: stop the server first.',
].join('\n');

const COMMANDS: Record<string, Command> = {
  'user add': {
    usage: 'user add --name NAME --email EMAIL [--admin]',
    summary: 'create a user and print its id (--admin: instance administrator)',
    options: { name: { type: 'string' }, email: { type: 'string' }, admin: { type: 'boolean' } },
    check(v) {
      if (!required(v, 'name').trim()) throw new UsageError('--name must not be empty');
      const email = required(v, 'email').trim();
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
        throw new UsageError(`--email is not an email address: "${email}"`);
    },
    async run(db, v) {
      const name = required(v, 'name').trim();
      const email = required(v, 'email').trim().toLowerCase();
      const taken = await db.query('SELECT 1 FROM users WHERE email = $1', [email]);
      if (taken.length > 0) throw new CliFailure(`a user with email ${email} already exists`);
      console.log(await createUser(db, { displayName: name, email, instanceAdmin: v.admin === true }));
    },
  },
  'user list': {
    usage: 'user list',
    summary: 'list users: id, name, email, admin flag',
    options: {},
    async run(db) {
      const rows = await db.query<{ id: string; display_name: string; email: string | null; instance_admin: boolean }>(
        'SELECT id, display_name, email, instance_admin FROM users ORDER BY created_at, id',
      );
      printTable(
        ['ID', 'NAME', 'EMAIL', 'ADMIN'],
        rows.map((u) => [u.id, u.display_name, u.email ?? '-', u.instance_admin ? 'yes' : 'no']),
      );
    },
  },
  'token create': {
    usage: 'token create --user ID|EMAIL [--label LABEL]',
    summary: 'issue an API token for a user and print it (shown this once only)',
    options: { user: { type: 'string' }, label: { type: 'string' } },
    check(v) {
      required(v, 'user');
      // The server deletes and replaces this label's token at every start (it follows the setting).
      if (v.label === ADMIN_TOKEN_LABEL)
        throw new UsageError(`the label ${ADMIN_TOKEN_LABEL} is reserved for the server`);
    },
    async run(db, v) {
      const userId = await resolveUser(db, required(v, 'user'));
      // Their organization decided they sign in through its identity provider only; a token would bypass it.
      if (await mustUseSso(db, userId))
        throw new CliFailure(
          `${required(v, 'user')} must sign in with their organization's single sign-on (SAML): no API token is issued to them`,
        );
      const label = typeof v.label === 'string' ? v.label : 'cli';
      console.log(await issueToken(db, userId, label));
    },
  },
  'token list': {
    usage: 'token list --user ID|EMAIL',
    summary:
      "list a user's tokens, sessions and devices: id, label, created, last used, kind, expiry (never the secret)",
    options: { user: { type: 'string' } },
    check: (v) => void required(v, 'user'),
    async run(db, v) {
      const userId = await resolveUser(db, required(v, 'user'));
      const rows = await db.query<{
        id: string;
        label: string;
        created_at: Date;
        last_used_at: Date | null;
        kind: string;
        expires_at: Date | null;
      }>(
        'SELECT id, label, created_at, last_used_at, kind, expires_at FROM api_tokens WHERE user_id = $1 ORDER BY created_at, id',
        [userId],
      );
      // KIND: api (a script's token), session (the web app), device (a desktop app); EXPIRES: '-' for never.
      printTable(
        ['ID', 'LABEL', 'CREATED', 'LAST USED', 'KIND', 'EXPIRES'],
        rows.map((r) => [
          r.id,
          r.label || '-',
          r.created_at.toISOString(),
          r.last_used_at?.toISOString() ?? '-',
          r.kind,
          r.expires_at?.toISOString() ?? '-',
        ]),
      );
    },
  },
  'token revoke': {
    usage: 'token revoke TOKEN_ID',
    summary: 'revoke a token by its id (from "token list")',
    options: {},
    positionals: ['TOKEN_ID'],
    async run(db, _v, [tokenId]) {
      const deleted = await db.query('DELETE FROM api_tokens WHERE id = $1 RETURNING id', [tokenId]);
      if (deleted.length === 0) throw new CliFailure(`no token with id ${tokenId}`);
      console.log(`revoked ${tokenId}`);
    },
  },
  'domain list': {
    usage: 'domain list',
    summary: "list organizations' domain claims: organization, domain, status, the TXT record that proves it",
    options: {},
    async run(db) {
      printTable(['ORGANIZATION', 'DOMAIN', 'STATUS', 'DNS RECORD'], await listDomainRows(db));
    },
  },
  'domain approve': {
    usage: 'domain approve ORGANIZATION_ID DOMAIN',
    summary: 'verify a domain for an organization without its DNS record (the instance admin vouches for it)',
    options: {},
    positionals: ['ORGANIZATION_ID', 'DOMAIN'],
    async run(db, _v, [organizationId, domain]) {
      if (!isDomainName(domain!)) throw new UsageError(`not a domain name: "${domain}"`);
      try {
        console.log(await approveDomainFromCli(db, organizationId!, domain!));
      } catch (err) {
        throw err instanceof DomainCommandFailure ? new CliFailure(err.message) : err;
      }
    },
  },
  'blobs migrate': {
    usage: 'blobs migrate',
    summary:
      "copy the data folder's file bytes (DATA_DIR/blobs) to the FOLIO_S3_BUCKET bucket, verified by hash; resumable, run while serving",
    options: {},
    noDatabase: true,
    async run(_db, _v, _p, config) {
      const failure = await migrateBlobsFromCli(config, (line) => console.log(line));
      if (failure) throw new CliFailure(failure);
    },
  },
};

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string') throw new UsageError(`missing --${name}`);
  return value;
}

/** A user by id, or by email when the value contains "@". */
async function resolveUser(db: Db, idOrEmail: string): Promise<string> {
  const byEmail = idOrEmail.includes('@');
  const rows = await db.query<{ id: string }>(`SELECT id FROM users WHERE ${byEmail ? 'email' : 'id'} = $1`, [
    byEmail ? idOrEmail.toLowerCase() : idOrEmail,
  ]);
  if (!rows[0]) throw new CliFailure(`no user ${byEmail ? 'with email' : 'with id'} ${idOrEmail}`);
  return rows[0].id;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const row of [header, ...rows])
    console.log(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

function mainHelp(): string {
  const lines = ['Usage: npm run folio -- <command> [options]   (or: npx folio <command>)', '', 'Commands:'];
  for (const c of Object.values(COMMANDS)) lines.push(`  ${c.usage.padEnd(46)} ${c.summary}`);
  lines.push('', 'Run "<command> --help" for details.', '', DB_HELP);
  return lines.join('\n');
}

function commandHelp(c: Command): string {
  return [
    `Usage: npm run folio -- ${c.usage}`,
    '',
    `${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.`,
    '',
    DB_HELP,
  ].join('\n');
}

/** Runs one command line; returns the exit code. */
async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const command = COMMANDS[argv.slice(0, 2).join(' ')];
  if (!command) {
    // "--help", "help", "user --help": the overview, successfully.
    if (argv.some((a) => a === '--help' || a === '-h') || argv[0] === 'help') {
      console.log(mainHelp());
      return 0;
    }
    const words = argv.filter((a) => !a.startsWith('-')).slice(0, 2);
    const problem = argv.length === 0 ? 'missing command' : `unknown command "${words.join(' ')}"`;
    console.error(`folio: ${problem}\n\n${mainHelp()}`);
    return 2;
  }
  let db: Db | undefined;
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv.slice(2),
        options: { ...command.options, ...DB_OPTIONS, help: { type: 'boolean', short: 'h' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const values = parsed.values as Values;
    if (values.help) {
      console.log(commandHelp(command));
      return 0;
    }
    const expected = command.positionals ?? [];
    if (parsed.positionals.length < expected.length)
      throw new UsageError(`missing ${expected.slice(parsed.positionals.length).join(' ')}`);
    if (parsed.positionals.length > expected.length)
      throw new UsageError(`unexpected argument "${parsed.positionals[expected.length]}"`);
    command.check?.(values);
    // Only the database settings matter here; the server's other settings are read as they are.
    const dbFlags = Object.keys(DB_OPTIONS).flatMap((flag) =>
      typeof values[flag] === 'string' ? [`--${flag}`, values[flag] as string] : [],
    );
    const config = loadConfig(dbFlags, env);
    if (command.noDatabase) {
      await command.run(undefined as never, values, parsed.positionals, config);
      return 0;
    }
    // Loaded only now: server.ts pulls in the whole HTTP app (~1 s), which help and usage errors do not need.
    const { openDatabase } = await import('./server');
    db = await openDatabase(config);
    await migrate(db);
    await command.run(db, values, parsed.positionals, config);
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      console.error(`folio: ${err.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    console.error(
      `folio: ${err instanceof CliFailure ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}`}`,
    );
    return 1;
  } finally {
    await db?.close().catch(() => undefined);
  }
}

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
