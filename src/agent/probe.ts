import { request } from 'node:http';
import { connect } from 'node:net';
import type Docker from 'dockerode';
import { inspectContainer } from './containers.js';

export interface ProbeOptions {
  port: number;
  /** An HTTP GET of this path must answer 2xx or 3xx; without one, the port must accept a connection. */
  path?: string;
  timeoutMs: number;
}

export interface ProbeResult {
  ok: boolean;
  /** The HTTP status answered, when there was one. */
  status: number | null;
  /** Why it did not pass, in words. */
  error: string | null;
  /** Whether the container still runs (false: it exited, see `exitCode`). */
  running: boolean;
  exitCode: number | null;
}

function httpGet(host: string, port: number, path: string, timeoutMs: number) {
  return new Promise<{ status: number }>((resolve, reject) => {
    const req = request({ host, port, path, method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

function tcpConnect(host: string, port: number, timeoutMs: number) {
  return new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no connection within ${timeoutMs} ms`)),
    );
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/**
 * Checks a container's port from the agent, through the host port the
 * engine published it on (on loopback): the node needs no inbound port, and
 * the server never reaches a container directly.
 */
export async function probeContainer(
  docker: Docker,
  containerId: string,
  options: ProbeOptions,
): Promise<ProbeResult> {
  const details = await inspectContainer(docker, containerId);
  const fail = (error: string, status: number | null = null): ProbeResult => ({
    ok: false,
    status,
    error,
    running: details.running,
    exitCode: details.exitCode,
  });
  if (!details.running) return fail(`the container is ${details.state}`);
  const mapping = details.ports.find(
    (port) =>
      port.containerPort === options.port && port.protocol === 'tcp' && port.hostPort !== null,
  );
  if (mapping?.hostPort == null) return fail(`port ${options.port} is not published`);
  const host =
    mapping.hostIp === null || mapping.hostIp === '0.0.0.0' ? '127.0.0.1' : mapping.hostIp;
  try {
    if (options.path === undefined) {
      await tcpConnect(host, mapping.hostPort, options.timeoutMs);
      return { ok: true, status: null, error: null, running: true, exitCode: null };
    }
    const { status } = await httpGet(host, mapping.hostPort, options.path, options.timeoutMs);
    if (status >= 200 && status < 400) {
      return { ok: true, status, error: null, running: true, exitCode: null };
    }
    return fail(`HTTP ${status}`, status);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}
