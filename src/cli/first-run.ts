import { isAbsolute, relative } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createAccount, hasAccounts } from '../accounts/service.js';
import type { Config } from '../config.js';
import type { DatabaseKind } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { nameFromEmail } from './user.js';

/**
 * ADMIN_EMAIL and ADMIN_PASSWORD: creates that account when the database has
 * none yet, and does nothing once any account exists, so a restart never
 * duplicates it or resets its password. Returns whether an account exists now.
 */
export async function bootstrapAdminAccount(
  db: Database,
  config: Config,
  log: FastifyBaseLogger,
): Promise<boolean> {
  const admin = config.adminAccount;
  if (await hasAccounts(db)) {
    if (admin !== null) {
      log.info(
        { email: admin.email },
        'ADMIN_EMAIL is set but accounts exist already: nothing to create',
      );
    }
    return true;
  }
  if (admin === null) return false;
  try {
    const user = await createAccount(db, {
      email: admin.email,
      name: nameFromEmail(admin.email),
      password: admin.password,
    });
    log.info(
      { userId: user.id, email: user.email },
      `created the first account, ${user.email}, from ADMIN_EMAIL`,
    );
  } catch (error) {
    // Another server process on the same database created it a moment ago.
    if (!(error instanceof AppError && error.code === 'email_taken')) throw error;
    log.info({ email: admin.email }, 'ADMIN_EMAIL: the account exists already');
  }
  return true;
}

/** How this program was started, for commands the operator can paste. */
function selfCommand(): string {
  const script = process.argv[1];
  if (script === undefined) return 'sparrow';
  const local = relative(process.cwd(), script);
  const path = local.startsWith('..') || isAbsolute(local) ? script : local;
  return path.endsWith('.ts') ? `npx tsx ${path}` : `node ${path}`;
}

/** What an operator needs once the server listens: where to go, and how to get in. */
export function logFirstRunHints(
  log: FastifyBaseLogger,
  config: Config,
  state: { database: DatabaseKind; hasAccount: boolean },
): void {
  const docs = `${config.publicUrl}/api/docs`;
  log.info(
    {
      database: state.database,
      registration: config.registrationMode,
      metrics: config.metricsToken !== null,
    },
    `Sparrow is ready at ${config.publicUrl}; the web app is at ${config.publicUrl}/app/, the API reference at ${docs}`,
  );
  if (state.hasAccount) return;
  const command = `\`${selfCommand()} user create --email <address>\` (it prints a generated password)`;
  // The embedded database is for one process at a time: the command needs the server stopped.
  const how =
    state.database === 'pglite'
      ? `stop the server and create the first one with ${command}, then start it again`
      : `create the first one with ${command}`;
  log.warn(
    `No account exists yet: ${how}; or set ADMIN_EMAIL and ADMIN_PASSWORD and start the server again`,
  );
}
