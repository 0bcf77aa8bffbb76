import type Docker from 'dockerode';
import { AgentError, engineStatus, fromEngineError, isStateConflict } from './errors.js';
import { envList } from './exec.js';
import type { ContainerCreateParams } from './protocol/methods.js';
import type {
  ContainerDetails,
  ContainerState,
  ContainerSummary,
  PortMapping,
} from './protocol/schemas.js';

/**
 * Every container the agent creates carries these labels: `managed`, the
 * node whose agent created it (`node`, so that agents of several nodes on one
 * engine each recover only their own), and the worker it holds, if any.
 */
export const Labels = {
  managed: 'sparrow.managed',
  node: 'sparrow.node',
  worker: 'sparrow.worker',
} as const;

/** Sleeps until stopped; a TERM ends it at once (no 10 s wait for a KILL). */
export const KEEP_ALIVE = [
  '/bin/sh',
  '-c',
  'trap "exit 0" TERM INT; while :; do sleep 3600 & wait $!; done',
];

const STATES: readonly ContainerState[] = [
  'created',
  'running',
  'paused',
  'restarting',
  'exited',
  'removing',
  'dead',
];

/** Docker's states, and Podman's own words for the same ones. */
export function normalizeState(raw: string | undefined): ContainerState {
  const state = (raw ?? '').toLowerCase();
  const known = STATES.find((candidate) => candidate === state);
  if (known !== undefined) return known;
  if (state === 'stopped') return 'exited';
  if (state === 'configured' || state === 'initialized') return 'created';
  return 'unknown';
}

/** ISO time, or null for the engine's zero time and garbage. */
export function isoTime(raw: string | number | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  const date = typeof raw === 'number' ? new Date(raw * 1000) : new Date(raw);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1970) return null;
  return date.toISOString();
}

function protocolOf(raw: string | undefined): 'tcp' | 'udp' {
  return raw === 'udp' ? 'udp' : 'tcp';
}

function summaryPorts(ports: Docker.Port[] | undefined): PortMapping[] {
  return (ports ?? []).map((port) => ({
    containerPort: port.PrivatePort,
    protocol: protocolOf(port.Type),
    hostIp: port.IP === undefined || port.IP === '' ? null : port.IP,
    hostPort: port.PublicPort === undefined || port.PublicPort === 0 ? null : port.PublicPort,
  }));
}

function inspectPorts(info: Docker.ContainerInspectInfo): PortMapping[] {
  const mappings: PortMapping[] = [];
  for (const [key, bindings] of Object.entries(info.NetworkSettings?.Ports ?? {})) {
    const [port = '', protocol] = key.split('/');
    const containerPort = Number(port);
    if (!Number.isInteger(containerPort) || containerPort < 1) continue;
    if (bindings === null || bindings.length === 0) {
      mappings.push({
        containerPort,
        protocol: protocolOf(protocol),
        hostIp: null,
        hostPort: null,
      });
      continue;
    }
    for (const binding of bindings) {
      const hostPort = Number(binding.HostPort);
      mappings.push({
        containerPort,
        protocol: protocolOf(protocol),
        hostIp: binding.HostIp === '' ? null : binding.HostIp,
        hostPort: Number.isInteger(hostPort) && hostPort > 0 ? hostPort : null,
      });
    }
  }
  return mappings;
}

function workerOf(labels: Record<string, string>): string | null {
  return labels[Labels.worker] ?? null;
}

export function toSummary(info: Docker.ContainerInfo): ContainerSummary {
  const labels = info.Labels ?? {};
  return {
    id: info.Id,
    name: (info.Names[0] ?? info.Id).replace(/^\//, ''),
    image: info.Image,
    state: normalizeState(info.State),
    status: info.Status ?? '',
    labels,
    workerId: workerOf(labels),
    createdAt: isoTime(info.Created),
    ports: summaryPorts(info.Ports),
  };
}

export function toDetails(info: Docker.ContainerInspectInfo): ContainerDetails {
  const labels = info.Config?.Labels ?? {};
  const state = normalizeState(info.State?.Status);
  return {
    id: info.Id,
    name: info.Name.replace(/^\//, ''),
    image: info.Config?.Image ?? info.Image,
    state,
    status: info.State?.Status ?? '',
    labels,
    workerId: workerOf(labels),
    createdAt: isoTime(info.Created),
    ports: inspectPorts(info),
    running: info.State?.Running ?? false,
    exitCode: state === 'exited' && info.State !== undefined ? info.State.ExitCode : null,
    startedAt: isoTime(info.State?.StartedAt),
    finishedAt: isoTime(info.State?.FinishedAt),
  };
}

/**
 * Containers the agent manages (label `sparrow.managed`), running or not;
 * with `nodeId`, only the running ones labelled with that node.
 */
export async function listManaged(docker: Docker, nodeId?: string): Promise<ContainerSummary[]> {
  const label = [`${Labels.managed}=true`];
  if (nodeId !== undefined) label.push(`${Labels.node}=${nodeId}`);
  try {
    const containers = await docker.listContainers({
      all: nodeId === undefined,
      filters: nodeId === undefined ? { label } : { label, status: ['running'] },
    });
    return containers.map(toSummary);
  } catch (error) {
    throw fromEngineError(error, 'container list');
  }
}

export async function inspectContainer(docker: Docker, id: string): Promise<ContainerDetails> {
  try {
    return toDetails(await docker.getContainer(id).inspect());
  } catch (error) {
    throw fromEngineError(error, `container ${id}`);
  }
}

export interface CreateDefaults {
  /** Run an init (tini, catatonit) as PID 1 to reap orphans and pass signals. */
  init: boolean;
  /** The node the agent serves (known from the server's welcome), for the `node` label. */
  nodeId?: string | null;
}

function createOptions(params: ContainerCreateParams, defaults: CreateDefaults) {
  const labels: Record<string, string> = { ...params.labels, [Labels.managed]: 'true' };
  const nodeId = defaults.nodeId ?? null;
  if (nodeId !== null) labels[Labels.node] = nodeId;
  if (params.workerId !== undefined) labels[Labels.worker] = params.workerId;
  const network = params.network ?? 'bridge';
  const exposed: Record<string, Record<string, never>> = {};
  const bindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
  for (const port of network === 'bridge' ? (params.ports ?? []) : []) {
    const key = `${port.containerPort}/${port.protocol ?? 'tcp'}`;
    exposed[key] = {};
    const hostPort = port.hostPort ?? 0;
    bindings[key] = [
      ...(bindings[key] ?? []),
      { HostIp: port.hostIp ?? '127.0.0.1', HostPort: hostPort === 0 ? '' : String(hostPort) },
    ];
  }
  const name =
    params.name ??
    (params.workerId === undefined ? undefined : `sparrow-worker-${params.workerId}`);
  return {
    name,
    Image: params.image,
    Cmd: params.command ?? (params.imageCommand === true ? undefined : KEEP_ALIVE),
    Env: envList(params.env),
    Labels: labels,
    WorkingDir: params.workdir,
    Hostname: params.hostname,
    ExposedPorts: exposed,
    HostConfig: {
      Init: defaults.init,
      NetworkMode: network,
      PortBindings: bindings,
      Binds: (params.mounts ?? []).map(
        (mount) => `${mount.source}:${mount.target}:${mount.readOnly === true ? 'ro' : 'rw'}`,
      ),
      Memory: params.memoryBytes,
      NanoCpus: params.cpus === undefined ? undefined : Math.round(params.cpus * 1e9),
      RestartPolicy: params.restart === undefined ? undefined : { Name: params.restart },
    },
  };
}

export async function createContainer(
  docker: Docker,
  params: ContainerCreateParams,
  defaults: CreateDefaults,
): Promise<ContainerDetails> {
  let container: Docker.Container;
  try {
    container = await docker.createContainer(createOptions(params, defaults));
  } catch (error) {
    // A 404 on create means the image: no registry is asked, images are local.
    throw fromEngineError(error, `image ${params.image}`, 'image_not_found');
  }
  return inspectContainer(docker, container.id);
}

/** Starts a container; starting a running one is not an error. */
export async function startContainer(docker: Docker, id: string): Promise<void> {
  try {
    await docker.getContainer(id).start();
  } catch (error) {
    if (engineStatus(error) === 304) return;
    throw fromEngineError(error, `container ${id}`);
  }
}

/** Stops a container; stopping a stopped one is not an error. */
export async function stopContainer(
  docker: Docker,
  id: string,
  timeoutSeconds = 10,
): Promise<void> {
  try {
    await docker.getContainer(id).stop({ t: timeoutSeconds });
  } catch (error) {
    if (engineStatus(error) === 304) return;
    throw fromEngineError(error, `container ${id}`);
  }
}

/** Removes a container; false when there was none. A running one needs `force`. */
export async function removeContainer(
  docker: Docker,
  id: string,
  force: boolean,
): Promise<boolean> {
  try {
    await docker.getContainer(id).remove({ force, v: true });
    return true;
  } catch (error) {
    if (engineStatus(error) === 404) return false;
    if (isStateConflict(error)) {
      throw new AgentError('conflict', `container ${id} is running; stop it or remove with force`);
    }
    throw fromEngineError(error, `container ${id}`);
  }
}
