import { connect, type Socket } from 'node:net';
import type Docker from 'dockerode';
import { AgentError, fromEngineError } from './errors.js';
import type { OpenedStream, StreamControl, StreamSink } from './handlers.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** Input the container has not read yet past which the server is asked to wait. */
const INPUT_HIGH_WATER = 1024 * 1024;

/**
 * The container's address on the node's engine: its first network's address
 * (a rootful Podman or Docker bridge is reachable from the host), or loopback
 * for a container on the host's network.
 */
export async function containerAddress(docker: Docker, containerId: string): Promise<string> {
  let info: Docker.ContainerInspectInfo;
  try {
    info = await docker.getContainer(containerId).inspect();
  } catch (error) {
    throw fromEngineError(error, `container ${containerId}`);
  }
  if (info.State?.Running !== true) {
    throw new AgentError('container_not_running', `container ${containerId} is not running`);
  }
  if (info.HostConfig?.NetworkMode === 'host') return '127.0.0.1';
  const networks = Object.values(info.NetworkSettings?.Networks ?? {});
  const address = networks.map((network) => network.IPAddress).find((ip) => ip !== '');
  if (address === undefined || address === '') {
    throw new AgentError('no_address', `container ${containerId} has no network address`);
  }
  return address;
}

function open(address: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, noDelay: true });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new AgentError('connect_timeout', `${address}:${port} did not accept in time`));
    }, CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      // Until the stream starts and after: a failure shows as 'close'.
      socket.on('error', () => {});
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new AgentError('connect_failed', `${address}:${port}: ${error.code ?? error.message}`),
      );
    });
  });
}

/**
 * `port.connect`: a TCP connection to the container's port, piped both ways.
 * Output pauses with the stream (the connection to the server backed up);
 * input the container does not read fast enough pauses the server's sending.
 */
export async function connectPort(
  docker: Docker,
  containerId: string,
  port: number,
): Promise<OpenedStream<{ address: string; port: number }>> {
  const address = await containerAddress(docker, containerId);
  const socket = await open(address, port);
  socket.pause();
  return {
    result: { address, port },
    start: (sink: StreamSink): StreamControl => {
      let inputPaused = false;
      socket.on('data', (bytes: Buffer) => sink.data(bytes));
      socket.on('drain', () => {
        if (!inputPaused) return;
        inputPaused = false;
        sink.resumeInput?.();
      });
      socket.on('close', (hadError) =>
        sink.end(
          hadError ? { error: { code: 'connection_reset', message: 'the connection failed' } } : {},
        ),
      );
      // The container closed its side: HTTP and WebSocket peers are done then too.
      socket.on('end', () => socket.end());
      socket.resume();
      return {
        input(bytes) {
          if (socket.destroyed) return;
          socket.write(bytes);
          if (!inputPaused && socket.writableLength > INPUT_HIGH_WATER) {
            inputPaused = true;
            sink.pauseInput?.();
          }
        },
        async resize() {},
        close: () => socket.destroy(),
        pause: () => socket.pause(),
        resume: () => socket.resume(),
      };
    },
  };
}
