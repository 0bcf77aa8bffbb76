import { SparrowError } from '@sparrow/client';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CliError, EXIT_ERROR, EXIT_USAGE } from './errors.js';
import * as platform from './platform.js';
import * as session from './session.js';

/** The commands this module answers (main.ts loads it for these only). */
export const CLIENT_COMMANDS = [
  'login',
  'logout',
  'whoami',
  'orgs',
  'projects',
  'workers',
  'exec',
  'keys',
];

const SCOPES = [
  '*',
  'projects:read',
  'projects:write',
  'workers:read',
  'workers:write',
  'workers:exec',
  'deployments:read',
  'deployments:write',
  'deployments:access',
  'nodes:read',
  'nodes:write',
  'secrets:write',
] as const;

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new InvalidArgumentError('a whole number of milliseconds');
  return number;
}

/** `--scope` repeated: each one checked against the catalog, all kept. */
function scopes(value: string, previous: unknown): string[] {
  if (!SCOPES.some((scope) => scope === value)) {
    throw new InvalidArgumentError(`Allowed scopes are ${SCOPES.join(', ')}.`);
  }
  return [...(Array.isArray(previous) ? previous.map(String) : []), value];
}

const jsonOption = () => new Option('--json', "print the API's JSON (for scripts)");
const orgOption = () =>
  new Option('--org <org>', 'organization, by id or name (default: your only one)');
const projectOption = (what: string) =>
  new Option('--project <project>', `project, by id or name (${what})`);

/** Adds `--org` and `--json` to a command. */
function inOrg(command: Command): Command {
  return command.addOption(orgOption()).addOption(jsonOption());
}

function build(): Command {
  const program = new Command('sparrow')
    .description(
      'The Sparrow command line: the server and its operator commands, and a client of its API',
    )
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');

  program
    .command('login')
    .description('sign in to a server and store the token (~/.config/sparrow/config.json)')
    .argument('[url]', "the server's address (default: SPARROW_URL, or the stored login's)")
    .option('--token-stdin', 'read an API key or session token from standard input')
    .option('--email <address>', 'the e-mail to sign in with (asked otherwise)')
    .option('--name <name>', 'store the login under this name, for several servers', 'default')
    .addOption(jsonOption())
    .action(session.login);

  program
    .command('logout')
    .description('forget the stored login (and end its session on the server)')
    .option('--name <name>', 'the stored login to forget (default: the current one)')
    .action(session.logout);

  program
    .command('whoami')
    .description('who the credentials in use are, and on which server')
    .addOption(jsonOption())
    .action(session.whoami);

  const orgs = program.command('orgs').description('organizations');
  orgs
    .command('list')
    .description('the organizations you belong to')
    .addOption(jsonOption())
    .action(platform.listOrgs);
  orgs
    .command('create')
    .description('create an organization (you become its owner; not with an API key)')
    .argument('<name>', "the organization's name")
    .addOption(jsonOption())
    .action(platform.createOrg);

  const projects = program.command('projects').description('projects of an organization');
  inOrg(projects.command('list').description('list projects')).action(platform.projectsList);
  inOrg(
    projects
      .command('create')
      .description('create a project')
      .argument('<name>', "the project's name")
      .option('--description <text>', 'a description'),
  ).action(platform.projectsCreate);

  const workers = program
    .command('workers')
    .description('workers: workspace containers of a project');
  inOrg(
    workers.command('list').description("list workers (of one project, or all the organization's)"),
  )
    .addOption(projectOption('default: every project'))
    .action(platform.workersList);
  inOrg(workers.command('create').description('spawn a worker'))
    .addOption(projectOption('required').makeOptionMandatory())
    .option('--branch <branch>', 'the branch to check out')
    .option('--name <name>', "the worker's name")
    .option('--wait', 'answer once it is ready (or failed)')
    .action(platform.workersCreate);
  for (const move of ['start', 'stop', 'delete'] as const) {
    inOrg(
      workers
        .command(move)
        .description(`${move} a worker`)
        .argument('<worker>', 'worker, by id or name'),
    )
      .addOption(projectOption("default: found across the organization's projects"))
      .option('--wait', 'answer once the move has settled')
      .action((ref: string, options: platform.ProjectOptions) =>
        platform.workersMove(move, ref, options),
      );
  }

  inOrg(
    program
      .command('exec')
      .description(
        "run a command in a worker and wait: its output, and its exit status as this command's",
      )
      .argument('<worker>', 'worker, by id or name')
      .argument('<command...>', 'the program and its arguments (after --)'),
  )
    .addOption(projectOption("default: found across the organization's projects"))
    .option('--workdir <path>', 'the folder to run in (default /workspaces)')
    .option('--stdin', "pass this program's standard input to the command (read whole first)")
    .option(
      '--timeout <ms>',
      'kill the command after this long (default 10 minutes)',
      positiveInteger,
    )
    .action(platform.exec);

  const keys = program.command('keys').description('API keys of an organization');
  inOrg(keys.command('list').description('list keys (never their tokens)')).action(
    platform.keysList,
  );
  inOrg(
    keys
      .command('create')
      .description('create a key; its token is printed once')
      .argument('<name>', "the key's name")
      .addOption(
        new Option('--scope <scope>', 'a scope (repeat for several)')
          .argParser(scopes)
          .makeOptionMandatory(),
      )
      .option('--org-owned', 'a service account of the organization rather than a personal key'),
  ).action(platform.keysCreate);
  inOrg(
    keys.command('revoke').description('revoke a key').argument('<key>', 'key, by id or name'),
  ).action(platform.keysRevoke);

  return program;
}

/** Prints a failure as `Error: <message> (<code>)` and sets the exit status. */
function report(error: unknown): void {
  if (error instanceof CommanderError) {
    // Help and --version end with code 0; every parse error is a bad argument.
    process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
    return;
  }
  if (error instanceof SparrowError) {
    process.stderr.write(`Error: ${error.message} (${error.code})\n`);
    process.exitCode = EXIT_ERROR;
    return;
  }
  if (error instanceof CliError) {
    process.stderr.write(`Error: ${error.message}\n`);
    process.exitCode = error.exitCode;
    return;
  }
  throw error;
}

/** Runs a client command (`argv` without the program's name). */
export async function runClient(argv: string[]): Promise<void> {
  try {
    await build().parseAsync(argv, { from: 'user' });
  } catch (error) {
    report(error);
  }
}
