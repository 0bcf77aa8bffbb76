import type { BackgroundTask } from '../../module.js';
import { ensureSharedNode } from './service.js';

export const LOCAL_NODE_NAME = 'local';

/**
 * With `LOCAL_AGENT=true` the server runs an agent for this machine's own
 * container engine: the shared node `local`, which every organization can
 * place workers on. It is the ordinary agent, dialling the server over
 * loopback with a token renewed at every start, so one machine needs one
 * command.
 */
export const localAgentTask: BackgroundTask = async (ctx) => {
  const { config, log } = ctx;
  if (!config.localAgent) return async () => {};
  if (config.port === 0) {
    log.warn('LOCAL_AGENT needs a fixed PORT to dial; the built-in agent is not started');
    return async () => {};
  }
  // Loaded only when asked for: the agent brings the engine client and terminal emulator.
  const [{ AgentConnection }, { createEngine, parseDockerHost }, { Runtime }] = await Promise.all([
    import('../../agent/connection.js'),
    import('../../agent/engine.js'),
    import('../../agent/runtime.js'),
  ]);
  const { token } = await ensureSharedNode(ctx.db, LOCAL_NODE_NAME);
  const wildcard = ['0.0.0.0', '::', ''].includes(config.host);
  const host = wildcard
    ? '127.0.0.1'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  const engine = parseDockerHost(config.localAgentDockerHost ?? undefined);
  const connection = new AgentConnection({
    server: `http://${host}:${config.port}`,
    token,
    runtime: new Runtime(createEngine(engine)),
    initialBackoffMs: 200,
    log: (level, message) => log[level]({ component: 'local-agent' }, message),
  });
  connection.on('fatal', (error: Error) => log.error({ err: error }, 'built-in agent stopped'));
  connection.start();
  return () => connection.stop();
};
