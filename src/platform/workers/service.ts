import type { Repository } from '../../agent/protocol/schemas.js';
import type { Database } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { OrgAccess } from '../access/org-access.js';
import { hasRoom, nodeAvailable, nodeLoads } from '../nodes/load.js';
import type { NodeRow } from '../nodes/repository.js';
import * as nodes from '../nodes/repository.js';
import { isOnline } from '../nodes/service.js';
import { projectInOrg } from '../projects/lookup.js';
import type { ProjectRow } from '../projects/repository.js';
import type { WorkerRow } from './repository.js';
import * as repository from './repository.js';
import type { SpawnWorkerBody, Worker } from './schemas.js';

export function portUrl(publicAddress: string | null, hostPort: number | null): string | null {
  if (hostPort === null) return null;
  const host = publicAddress ?? '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${hostPort}`;
}

export function toWorker(row: WorkerRow, publicAddress: string | null): Worker {
  const ports = row.forward_ports.map((port) => {
    const mapping = row.ports.find((candidate) => candidate.containerPort === port);
    const hostPort = mapping?.hostPort ?? null;
    return { port, protocol: 'tcp', hostPort, url: portUrl(publicAddress, hostPort) };
  });
  return {
    id: row.id,
    orgId: row.org_id,
    projectId: row.project_id,
    nodeId: row.node_id,
    userId: row.user_id,
    name: row.name,
    branch: row.branch,
    state: row.state,
    stateReason: row.state_reason,
    stateChangedAt: row.state_changed_at.toISOString(),
    containerId: row.container_id,
    image: row.image,
    repositories: row.repositories.map((repository) => {
      const checkout = row.checkouts.find((candidate) => candidate.path === repository.path);
      return {
        url: repository.url,
        path: repository.path,
        branch: checkout?.branch ?? repository.branch ?? null,
        cloned: checkout?.ok ?? null,
        message: checkout?.message ?? null,
      };
    }),
    ports,
    urls: ports.flatMap((port) => (port.url === null ? [] : [port.url])),
    readyAt: row.ready_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function presentWorker(db: Database, row: WorkerRow): Promise<Worker> {
  const node = await nodes.findNodeById(db, row.node_id);
  return toWorker(row, node?.public_address ?? null);
}

/** The worker if it belongs to this project of the caller's organization, else 404. */
export async function workerInProject(
  db: Database,
  access: OrgAccess,
  projectId: string,
  workerId: string,
): Promise<WorkerRow> {
  await projectInOrg(db, access, projectId);
  const row = await repository.findWorker(db, workerId);
  if (row === undefined || row.project_id !== projectId) throw notFound('Worker');
  return row;
}

export async function listWorkers(
  db: Database,
  access: OrgAccess,
  projectId: string,
): Promise<Worker[]> {
  await projectInOrg(db, access, projectId);
  const rows = await repository.listWorkers(db, projectId);
  const addresses = new Map(
    (await nodes.listNodes(db, access.orgId)).map((node) => [node.id, node.public_address]),
  );
  return rows.map((row) => toWorker(row, addresses.get(row.node_id) ?? null));
}

/**
 * The node a new worker goes to: the one named (409 `node_unavailable` when
 * it is offline, draining or full), else the online, not draining node with
 * the lightest load (active workers and service replicas) and room under its `maxWorkers` (409
 * `no_node_available` when there is none). The candidates are locked, so the
 * caller must insert the worker in the same transaction (`db`): then no
 * concurrent spawn can take the same free place.
 */
export async function placeWorker(
  db: Database,
  access: OrgAccess,
  nodeId: string | undefined,
): Promise<NodeRow> {
  const candidates = await nodes.lockPlacementNodes(db, access.orgId, nodeId);
  const counts = await nodeLoads(
    db,
    candidates.map((node) => node.id),
  );
  const roomy = (node: NodeRow) => hasRoom(node, counts.get(node.id) ?? 0);
  if (nodeId !== undefined) {
    const node = candidates.find((candidate) => candidate.id === nodeId);
    if (node === undefined) throw notFound('Node');
    if (!nodeAvailable(node) || !roomy(node)) {
      throw conflict('node_unavailable', 'The node is offline, draining or full', {
        nodeId,
        draining: node.draining_at !== null,
        online: isOnline(node),
      });
    }
    return node;
  }
  const available = candidates
    .filter((node) => nodeAvailable(node) && roomy(node))
    .sort((a, b) => (counts.get(a.id) ?? 0) - (counts.get(b.id) ?? 0));
  const chosen = available[0];
  if (chosen === undefined) {
    throw conflict(
      'no_node_available',
      'No node can take a worker: register one and start its agent, or undrain one',
    );
  }
  return chosen;
}

/** Where each project repository is checked out: /workspaces/<name>, unique. */
export function checkoutPlan(project: ProjectRow, branch: string | null): Repository[] {
  const used = new Set<string>();
  return project.repositories.map((repository) => {
    const base =
      repository.url
        .replace(/[/\\]+$/, '')
        .split(/[/:\\]/)
        .pop()
        ?.replace(/\.git$/, '')
        .replace(/[^A-Za-z0-9._-]/g, '-') || 'repository';
    let name = base.startsWith('.') ? `repo${base}` : base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    const chosen = branch ?? repository.branch;
    return {
      url: repository.url,
      path: `/workspaces/${name}`,
      ...(chosen === null ? {} : { branch: chosen }),
    };
  });
}

export async function createWorkerRow(
  db: Database,
  access: OrgAccess,
  project: ProjectRow,
  node: NodeRow,
  image: string,
  input: SpawnWorkerBody,
): Promise<WorkerRow> {
  const id = newId();
  return repository.insertWorker(db, {
    id,
    org_id: access.orgId,
    project_id: project.id,
    node_id: node.id,
    user_id: access.userId,
    created_by_key_id: access.keyId,
    name: input.name?.trim() ?? `${project.name}-${id.slice(-6)}`,
    branch: input.branch ?? null,
    image,
    repositories: checkoutPlan(project, input.branch ?? null),
    forward_ports: project.forward_ports,
  });
}
