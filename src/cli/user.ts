import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import Type from 'typebox';
import { RegisterBody } from '../accounts/schemas.js';
import { createAccount } from '../accounts/service.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { AppError } from '../http/errors.js';
import { validatorCompiler } from '../http/validation.js';
import { allMigrations } from '../modules.js';

export const USER_USAGE = `Usage: sparrow user create --email <address> [options]

Creates an account with a password on the configured database (pending
migrations are applied first), whatever REGISTRATION_MODE says. The account
signs in with POST /auth/login like any other. On the embedded database (no
DATABASE_URL), stop the server first: that database is for one process.

Options:
  --email <address>   the account's e-mail address (required)
  --name <name>       the name shown to others (default: the address before "@")
  --password <p>      the password, 12 to 256 characters (it stays in the shell history)
  --password-stdin    read the password from the first line of standard input
                      without either, a password is generated and printed once
`;

/** A mistake in the arguments: the usage is printed with it, exit status 2. */
export class UserArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserArgsError';
  }
}

/** The command ran and could not do it (the address is taken): exit status 1. */
export class UserCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserCommandError';
  }
}

const ADMIN_REFUSAL =
  'Sparrow has no instance administrator. The operator acts through the configuration and ' +
  'this command; every account can create workspaces and organizations and owns what it ' +
  'creates. Leave out --admin (see README, "First run").';

export interface CreateUserArgs {
  help: boolean;
  email: string;
  name: string;
  /** Null: read from standard input, or generated when `generate` is set. */
  password: string | null;
  generate: boolean;
}

/** The name an account gets when none is given: the address before "@". */
export function nameFromEmail(email: string): string {
  return email.split('@')[0]?.slice(0, 200) || email;
}

/** The account fields, checked by the very schema `POST /auth/register` checks its body with. */
const NewAccountBody = Type.Object({
  email: RegisterBody.properties.email,
  name: RegisterBody.properties.name,
  password: RegisterBody.properties.password,
});
const checkNewAccount = validatorCompiler({
  schema: NewAccountBody,
  method: 'POST',
  url: '',
  httpPart: 'body',
});

/** Why these fields would be refused by registration, or null. */
export function accountProblem(fields: { email: string; name: string; password: string }) {
  if (checkNewAccount(fields) === true) return null;
  const [first] = checkNewAccount.errors ?? [];
  const field = first?.instancePath.replace(/^\//, '') ?? '';
  return `--${field || 'email'}: ${first?.message ?? 'is not accepted'}`;
}

export function parseUserArgs(argv: readonly string[]): CreateUserArgs {
  const [subcommand, ...rest] = argv;
  const blank = { email: '', name: '', password: null, generate: false };
  if (subcommand === undefined || subcommand === '--help' || subcommand === '-h') {
    return { help: true, ...blank };
  }
  if (subcommand !== 'create') throw new UserArgsError(`unknown subcommand "${subcommand}"`);
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(rest).values;
  } catch (error) {
    throw new UserArgsError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return { help: true, ...blank };
  if (values.admin === true) throw new UserArgsError(ADMIN_REFUSAL);
  const email = values.email?.trim();
  if (email === undefined || email === '') throw new UserArgsError('--email is required');
  if (values.password !== undefined && values['password-stdin'] === true) {
    throw new UserArgsError('give --password or --password-stdin, not both');
  }
  return {
    help: false,
    email,
    name: values.name ?? nameFromEmail(email),
    password: values.password ?? null,
    generate: values.password === undefined && values['password-stdin'] !== true,
  };
}

function parse(args: string[]) {
  return parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      admin: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** The first line of standard input, without its line ending. */
async function readPasswordLine(): Promise<string> {
  const lines = createInterface({ input: process.stdin, terminal: false });
  try {
    for await (const line of lines) return line;
  } finally {
    lines.close();
  }
  throw new UserArgsError('--password-stdin: standard input is empty');
}

/** 24 characters from 18 random bytes (144 bits), URL-safe so it survives copy and paste. */
function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** `sparrow user create`: one account, or a clear error and nothing written. */
export async function createUser(config: Config, args: CreateUserArgs): Promise<void> {
  const password = args.generate
    ? generatePassword()
    : (args.password ?? (await readPasswordLine()));
  const fields = { email: args.email, name: args.name, password };
  const problem = accountProblem(fields);
  if (problem !== null) throw new UserArgsError(problem);
  const database = await openDatabase(config);
  try {
    const { applied } = await migrateToLatest(database.db, allMigrations);
    if (applied.length > 0) process.stdout.write(`Applied ${applied.length} migration(s).\n`);
    const user = await createAccount(database.db, fields).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'email_taken') {
        throw new UserCommandError(`An account with the e-mail ${args.email} already exists`);
      }
      throw error;
    });
    process.stdout.write(`Created the account ${user.email} (${user.name}), id ${user.id}.\n`);
    if (args.generate) {
      process.stdout.write(`Password (shown only now): ${password}\n`);
    }
    process.stdout.write(`Sign in at ${config.publicUrl}/auth/login (POST email and password).\n`);
  } finally {
    await database.close();
  }
}
