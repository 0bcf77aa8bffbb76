import { request } from 'node:http';
import { connect } from 'node:net';
import type Docker from 'dockerode';
import { inspectContainer } from './containers.js';
import { containerAddress } from './port-connect.js';

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
 * Checks a container's port from the agent, at the container's own address
 * on the engine's network (as `port.connect` reaches it): nothing is
 * published on the node, so the node needs no inbound port and a private
 * service is reached only through the proxy.
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
  let host: string;
  try {
    host = await containerAddress(docker, containerId);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  try {
    if (options.path === undefined) {
      await tcpConnect(host, options.port, options.timeoutMs);
      return { ok: true, status: null, error: null, running: true, exitCode: null };
    }
    const { status } = await httpGet(host, options.port, options.path, options.timeoutMs);
    if (status >= 200 && status < 400) {
      return { ok: true, status, error: null, running: true, exitCode: null };
    }
    return fail(`HTTP ${status}`, status);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}
