import { existsSync } from 'node:fs';
import Docker from 'dockerode';

/** Where the setup script (scripts/podman/setup.sh) serves Podman's Docker API. */
export const SPARROW_PODMAN_SOCKET = '/run/sparrow-podman/podman.sock';

/** Tried in order when DOCKER_HOST is unset: Docker's, rootful Podman's, ours. */
export const DEFAULT_SOCKETS = [
  '/var/run/docker.sock',
  '/run/podman/podman.sock',
  SPARROW_PODMAN_SOCKET,
];

export type EngineEndpoint =
  | { kind: 'socket'; socketPath: string }
  | { kind: 'tcp'; host: string; port: number; protocol: 'http' | 'https' };

export class EngineAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineAddressError';
  }
}

/**
 * Reads a DOCKER_HOST value: `unix:///path`, `tcp://host:port` (https when
 * DOCKER_TLS_VERIFY is set is not supported here: use a socket), or a bare
 * socket path. Unset: the first default socket that exists.
 */
export function parseDockerHost(value: string | undefined): EngineEndpoint {
  const raw = value?.trim() ?? '';
  if (raw === '') {
    const found = DEFAULT_SOCKETS.find((path) => existsSync(path));
    return { kind: 'socket', socketPath: found ?? DEFAULT_SOCKETS[0] ?? '/var/run/docker.sock' };
  }
  if (raw.startsWith('/')) return { kind: 'socket', socketPath: raw };
  if (raw.startsWith('unix://')) {
    const path = raw.slice('unix://'.length);
    if (!path.startsWith('/'))
      throw new EngineAddressError(`expected unix:///absolute/path, got "${raw}"`);
    return { kind: 'socket', socketPath: path };
  }
  const match = /^(tcp|http|https):\/\/([^/:]+|\[[^\]]+\]):(\d{1,5})\/?$/.exec(raw);
  if (match === null) {
    throw new EngineAddressError(
      `expected unix:///path, tcp://host:port or a socket path, got "${raw}"`,
    );
  }
  const [, scheme, host = '', port = ''] = match;
  const portNumber = Number(port);
  if (portNumber < 1 || portNumber > 65535) throw new EngineAddressError(`bad port in "${raw}"`);
  return { kind: 'tcp', host, port: portNumber, protocol: scheme === 'https' ? 'https' : 'http' };
}

export function describeEndpoint(endpoint: EngineEndpoint): string {
  return endpoint.kind === 'socket'
    ? `unix://${endpoint.socketPath}`
    : `${endpoint.protocol}://${endpoint.host}:${endpoint.port}`;
}

export function createEngine(endpoint: EngineEndpoint): Docker {
  if (endpoint.kind === 'socket') return new Docker({ socketPath: endpoint.socketPath });
  return new Docker({ host: endpoint.host, port: endpoint.port, protocol: endpoint.protocol });
}
