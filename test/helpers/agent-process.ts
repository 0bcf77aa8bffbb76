import { type ChildProcess, spawn } from 'node:child_process';
import { describeEndpoint } from '../../src/agent/engine.js';
import { testEngineEndpoint } from './engine.js';
import { sparrowArgs } from './sparrow-process.js';

/**
 * `sparrow agent` as its own process, the way a node runs it: connecting
 * to `server` with a node's token, on the test engine, logging warnings only
 * (to nowhere: its output is ignored).
 */
export function spawnAgent(server: string, token: string): ChildProcess {
  return spawn(process.execPath, sparrowArgs(['agent', '--server', server]), {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      AGENT_TOKEN: token,
      DOCKER_HOST: describeEndpoint(testEngineEndpoint()),
    },
    stdio: 'ignore',
  });
}
