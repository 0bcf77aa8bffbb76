#!/usr/bin/env node
import { ConfigError, loadConfig } from './config.js';

const USAGE = `Usage: sparrow <command>

Commands:
  serve     run the HTTP server (applies pending migrations first)
  migrate   apply pending database migrations and exit
  user      create an account, such as the first one (user --help)
  agent     connect this machine to a server as a compute node (agent --help)

Client commands (to a running server; each takes --help):
  login     sign in to a server and store the token; logout, whoami
  orgs      list and create organizations
  projects  list and create projects
  workers   list, create, start, stop and delete workers
  exec      run a command in a worker, with its exit status
  keys      list, create and revoke API keys

The server's configuration comes from environment variables; see README.md.
`;

/**
 * Errors a user can fix: print the message, not a stack trace. The modules
 * that define them are loaded by the command that failed, so importing them
 * here costs nothing.
 */
async function isOperatorError(error: unknown): Promise<boolean> {
  if (!(error instanceof Error)) return false;
  if (error instanceof ConfigError) return true;
  if ('code' in error && error.code === 'EADDRINUSE') return true;
  const [{ DatabaseUnavailableError }, { MigrationError }, { UserCommandError }] =
    await Promise.all([
      import('./db/connect.js'),
      import('./db/migrate.js'),
      import('./cli/user.js'),
    ]);
  return (
    error instanceof DatabaseUnavailableError ||
    error instanceof MigrationError ||
    error instanceof UserCommandError
  );
}

/** As `CLIENT_COMMANDS` of cli/client/program.ts (not imported here, to load nothing more). */
const CLIENT_COMMANDS = new Set([
  'login',
  'logout',
  'whoami',
  'orgs',
  'projects',
  'workers',
  'exec',
  'keys',
]);

async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === 'agent') return agent(argv.slice(1));
  // The client commands load the API client alone, never the server's modules.
  if (CLIENT_COMMANDS.has(command)) {
    const { runClient } = await import('./cli/client/program.js');
    return runClient(argv);
  }
  if (command === 'user') return user(argv.slice(1));
  // Each command loads only what it needs, so `--help`, a configuration
  // error or the agent start without loading the whole server.
  if (command === 'serve') {
    const config = loadConfig();
    const { serve } = await import('./cli/serve.js');
    return serve(config);
  }
  if (command === 'migrate') {
    const config = loadConfig();
    const { migrate } = await import('./cli/migrate.js');
    return migrate(config);
  }
  process.stderr.write(`Unknown command "${command}".\n\n${USAGE}`);
  process.exitCode = 2;
}

/** `user create`: the arguments are checked before the configuration is read. */
async function user(argv: string[]): Promise<void> {
  const { createUser, parseUserArgs, USER_USAGE, UserArgsError } = await import('./cli/user.js');
  try {
    const args = parseUserArgs(argv);
    if (args.help) return void process.stdout.write(USER_USAGE);
    await createUser(loadConfig(), args);
  } catch (error) {
    if (!(error instanceof UserArgsError)) throw error;
    process.stderr.write(`user: ${error.message}\n\n${USER_USAGE}`);
    process.exitCode = 2;
  }
}

/**
 * The agent reads its own arguments, not the server's configuration, and is
 * loaded only when asked for (the server does not need the engine client).
 */
async function agent(argv: string[]): Promise<void> {
  const { AGENT_USAGE, AgentArgsError, AgentFatalError, parseAgentArgs, runAgent } = await import(
    './agent/cli.js'
  );
  try {
    const args = parseAgentArgs(argv);
    if (args.help) return void process.stdout.write(AGENT_USAGE);
    await runAgent(args);
    // Stopped by a signal, connection closed. Terminal sessions and log
    // follows still hold engine streams that would keep the process up;
    // their programs live on in the containers either way.
    process.exit(0);
  } catch (error) {
    if (error instanceof AgentArgsError) {
      process.stderr.write(`agent: ${error.message}\n\n${AGENT_USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof AgentFatalError) {
      process.stderr.write(`Error: ${error.message}\n`);
      process.exitCode = 1;
    } else throw error;
  }
}

main(process.argv.slice(2)).catch(async (error: unknown) => {
  if (error instanceof Error && (await isOperatorError(error))) {
    const prefix = error instanceof ConfigError ? 'Configuration error' : 'Error';
    process.stderr.write(`${prefix}: ${error.message}\n`);
  } else {
    process.stderr.write(
      `Fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
