import { randomBytes } from 'node:crypto';
import type WebSocket from 'ws';
import type { AgentPeer } from '../../agent/peer.js';
import type { Database } from '../../db/schema.js';
import { AppError, conflict } from '../../http/errors.js';
import type { AgentRegistry } from '../nodes/registry.js';
import { relay } from '../terminals/relay.js';
import { agentCall } from '../workers/agent-call.js';
import { replicaLabel, shortReplicaId } from './replica-lines.js';
import { activeReplicas, liveReplicas } from './replicas.js';

export interface ShellTarget {
  peer: AgentPeer;
  containerName: string;
  label: string;
}

/**
 * The replica a shell opens in: the one `replica` names (its id, or the six
 * hex digits of the log prefix) among the live ones, else the first active
 * one; 404 `replica_not_found`, 409 `service_not_running`, 503 `node_offline`.
 */
export async function shellTarget(
  db: Database,
  registry: AgentRegistry,
  serviceId: string,
  replica: string | undefined,
): Promise<ShellTarget> {
  const live = await liveReplicas(db, serviceId);
  let chosen: (typeof live)[number] | undefined;
  if (replica !== undefined) {
    const wanted = replica.toLowerCase();
    chosen = live.find((row) => row.id === wanted || shortReplicaId(row.id) === wanted);
    if (chosen === undefined) {
      throw new AppError('replica_not_found', 'The service has no live replica of this id', {
        replica,
      });
    }
  } else {
    [chosen] = await activeReplicas(db, serviceId);
    if (chosen === undefined) {
      throw conflict('service_not_running', 'The service has no active replica to open a shell in');
    }
  }
  const peer = await registry.reach(chosen.node_id);
  return {
    peer,
    containerName: chosen.container_name,
    label: replicaLabel(
      chosen,
      live.findIndex((row) => row.id === chosen.id),
    ),
  };
}

/**
 * An interactive shell over the socket, with the frames of worker
 * terminals: a session of its own in the replica's container (a login
 * shell), ended when the socket closes (a service's shell is not kept).
 */
export function openShell(
  socket: WebSocket,
  target: ShellTarget,
  size: { cols?: number; rows?: number },
): void {
  const name = `shell-${randomBytes(6).toString('hex')}`;
  const containerId = target.containerName;
  const kill = () =>
    void target.peer.request('terminal.kill', { containerId, name }).catch(() => {
      // Already gone: the shell exited on its own.
    });
  relay(
    socket,
    async (handlers) => {
      await agentCall(() => target.peer.request('terminal.create', { containerId, name, ...size }));
      try {
        const { result, stream } = await target.peer.openStream(
          'terminal.attach',
          { containerId, name, ...size },
          handlers,
        );
        return {
          stream: {
            ...stream,
            close: () => {
              stream.close();
              kill();
            },
          },
          ready: { mode: 'shell', replica: target.label, cols: result.cols, rows: result.rows },
        };
      } catch (error) {
        kill();
        throw error;
      }
    },
    'exit',
  );
}
