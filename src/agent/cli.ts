import pino from 'pino';
import { AgentConnection, AgentFatalError, AgentUrlError, agentConnectUrl } from './connection.js';
import {
  createEngine,
  describeEndpoint,
  EngineAddressError,
  type EngineEndpoint,
  parseDockerHost,
} from './engine.js';
import { Runtime } from './runtime.js';

export const AGENT_USAGE = `Usage: sparrow agent --server URL --token TOKEN [options]

Connects this machine to a Sparrow server as a compute node and runs its
workers as containers through the Docker Engine API (Docker, or Podman's
compatible socket).

Options (each falls back to an environment variable):
  --server URL         the server's address, e.g. https://sparrow.example.com
                       (AGENT_SERVER_URL)
  --token TOKEN        the node token the server issued when the node was
                       registered (AGENT_TOKEN; prefer the variable: arguments
                       are visible to other users of the machine)
  --docker-host ADDR   unix:///path/to/socket or tcp://host:port (DOCKER_HOST;
                       default: the first of /var/run/docker.sock,
                       /run/podman/podman.sock, /run/sparrow-podman/podman.sock)
  --no-init            do not run an init process as PID 1 of containers
  --no-tmux            hold terminal sessions in the agent even where the image
                       has tmux (they then end with the agent, but every byte
                       reaches the client as written)
  --log-level LEVEL    fatal, error, warn, info, debug (LOG_LEVEL; default info)
  -h, --help           this text
`;

export { AgentFatalError };

export class AgentArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentArgsError';
  }
}

export interface AgentArgs {
  help: boolean;
  server: string;
  token: string;
  engine: EngineEndpoint;
  init: boolean;
  /** Terminal sessions held by tmux where the image has it. */
  tmux: boolean;
  logLevel: string;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const VALUE_FLAGS = ['--server', '--token', '--docker-host', '--log-level'];

type Env = Record<string, string | undefined>;

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Reads `agent` arguments, falling back to the environment; throws AgentArgsError. */
export function parseAgentArgs(argv: readonly string[], env: Env = process.env): AgentArgs {
  const values = new Map<string, string>();
  let help = false;
  let init = true;
  let tmux = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') help = true;
    else if (arg === '--no-init') init = false;
    else if (arg === '--no-tmux') tmux = false;
    else {
      const [flag = '', inline] = arg.startsWith('--') ? arg.split(/=(.*)/s, 2) : [arg];
      if (!VALUE_FLAGS.includes(flag)) throw new AgentArgsError(`unknown argument "${arg}"`);
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) {
        throw new AgentArgsError(`${flag} needs a value`);
      }
      values.set(flag, value);
    }
  }
  const server = nonEmpty(values.get('--server')) ?? nonEmpty(env.AGENT_SERVER_URL);
  const token = nonEmpty(values.get('--token')) ?? nonEmpty(env.AGENT_TOKEN);
  const logLevel = (
    nonEmpty(values.get('--log-level')) ??
    nonEmpty(env.LOG_LEVEL) ??
    'info'
  ).toLowerCase();
  if (help) {
    return {
      help,
      server: server ?? '',
      token: token ?? '',
      engine: parseDockerHost(''),
      init,
      tmux,
      logLevel,
    };
  }
  if (server === undefined) throw new AgentArgsError('missing --server URL (or AGENT_SERVER_URL)');
  if (token === undefined) throw new AgentArgsError('missing --token TOKEN (or AGENT_TOKEN)');
  try {
    agentConnectUrl(server, token);
  } catch (error) {
    if (error instanceof AgentUrlError) throw new AgentArgsError(`--server: ${error.message}`);
    throw error;
  }
  if (!LEVELS.includes(logLevel)) {
    throw new AgentArgsError(
      `--log-level: expected one of ${LEVELS.join(', ')}, got "${logLevel}"`,
    );
  }
  let engine: EngineEndpoint;
  try {
    engine = parseDockerHost(values.get('--docker-host') ?? env.DOCKER_HOST);
  } catch (error) {
    if (error instanceof EngineAddressError)
      throw new AgentArgsError(`--docker-host: ${error.message}`);
    throw error;
  }
  return { help, server, token, engine, init, tmux, logLevel };
}

/**
 * Runs the agent until SIGINT or SIGTERM (resolves) or until the server
 * refuses the token (rejects with AgentFatalError).
 */
export async function runAgent(args: AgentArgs): Promise<void> {
  const logger = pino({ level: args.logLevel, base: { component: 'agent' } });
  const docker = createEngine(args.engine);
  const runtime = new Runtime(docker, { init: args.init, tmux: args.tmux });
  const engine = describeEndpoint(args.engine);
  try {
    await docker.ping();
    logger.info({ engine }, 'container engine answers');
  } catch (error) {
    logger.warn({ engine, err: String(error) }, 'container engine unreachable; reporting it');
  }
  const connection = new AgentConnection({
    server: args.server,
    token: args.token,
    runtime,
    log: (level, message) => logger[level](message),
  });
  logger.info({ server: connection.displayUrl }, 'connecting');
  await new Promise<void>((resolve, reject) => {
    const stop = () => {
      logger.info('stopping');
      void connection.stop().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    connection.once('fatal', (error: AgentFatalError) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      reject(error);
    });
    connection.start();
  });
}
