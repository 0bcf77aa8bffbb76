import type { Config } from '../../config.js';
import { isPgError, PG_FOREIGN_KEY_VIOLATION } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { generateToken, hashToken, tokenPreview } from '../../lib/tokens.js';
import type { OrgAccess } from '../access/org-access.js';
import type { NodeRow } from './repository.js';
import * as repository from './repository.js';
import type { Node, NodeWithToken, RegisterNodeBody } from './schemas.js';

export const NODE_TOKEN_PREFIX = 'snt_';

/** A node whose agent has not been heard from for this long counts as offline. */
export const NODE_STALE_MS = 90_000;

export function isOnline(row: NodeRow, now = Date.now()): boolean {
  return (
    row.connected && row.last_seen_at !== null && now - row.last_seen_at.getTime() < NODE_STALE_MS
  );
}

export function toNode(row: NodeRow): Node {
  const connected = isOnline(row);
  const info = row.info;
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    shared: row.org_id === null,
    status: row.draining_at !== null ? 'draining' : connected ? 'online' : 'offline',
    connected,
    draining: row.draining_at !== null,
    drainingSince: row.draining_at?.toISOString() ?? null,
    lastSeenAt: row.last_seen_at?.toISOString() ?? null,
    agentVersion: row.agent_version,
    hostname: info?.hostname ?? null,
    capacity:
      info === null
        ? null
        : { cpus: info.cpus, memoryBytes: info.memoryBytes, maxWorkers: row.max_workers },
    engine:
      info === null
        ? null
        : {
            reachable: info.engine.reachable,
            name: info.engine.name,
            version: info.engine.version,
            error: info.engine.error,
          },
    publicAddress: row.public_address,
    tokenPrefix: row.token_prefix,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function agentCommand(config: Config, token: string): string {
  return `sparrow agent --server ${config.publicUrl} --token ${token}`;
}

function newToken() {
  const token = generateToken(NODE_TOKEN_PREFIX);
  return {
    token,
    token_hash: hashToken(token),
    token_prefix: tokenPreview(token, NODE_TOKEN_PREFIX),
  };
}

/** A node the organization sees, else 404. */
export async function nodeInOrg(db: Database, access: OrgAccess, nodeId: string): Promise<NodeRow> {
  const row = await repository.findNode(db, access.orgId, nodeId);
  if (row === undefined) throw notFound('Node');
  return row;
}

/** The organization's own node, for changes: the shared node is the server's (403). */
async function ownNode(db: Database, access: OrgAccess, nodeId: string): Promise<NodeRow> {
  const row = await nodeInOrg(db, access, nodeId);
  if (row.org_id === null) {
    throw forbidden(
      'node_shared',
      'The shared built-in node belongs to the server: it is managed by its LOCAL_AGENT setting',
    );
  }
  return row;
}

export async function listNodes(db: Database, access: OrgAccess): Promise<Node[]> {
  return (await repository.listNodes(db, access.orgId)).map(toNode);
}

export async function getNode(db: Database, access: OrgAccess, nodeId: string): Promise<Node> {
  return toNode(await nodeInOrg(db, access, nodeId));
}

export async function registerNode(
  db: Database,
  config: Config,
  access: OrgAccess,
  input: RegisterNodeBody,
): Promise<NodeWithToken> {
  const name = input.name.trim();
  if (await repository.nameTaken(db, access.orgId, name)) {
    throw conflict('node_name_taken', 'A node of this organization already has this name', {
      name,
    });
  }
  const { token, ...stored } = newToken();
  const row = await repository.insertNode(db, {
    id: newId(),
    org_id: access.orgId,
    name,
    public_address: input.publicAddress ?? null,
    max_workers: input.maxWorkers ?? null,
    ...stored,
  });
  return { node: toNode(row), token, agentCommand: agentCommand(config, token) };
}

/** A new token; the old one stops working at once (the caller ends its live connection). */
export async function rotateToken(
  db: Database,
  config: Config,
  access: OrgAccess,
  nodeId: string,
): Promise<NodeWithToken> {
  await ownNode(db, access, nodeId);
  const { token, ...stored } = newToken();
  const row = await repository.setToken(db, nodeId, stored);
  return { node: toNode(row), token, agentCommand: agentCommand(config, token) };
}

export async function drainNode(
  db: Database,
  access: OrgAccess,
  nodeId: string,
  draining: boolean,
): Promise<Node> {
  await ownNode(db, access, nodeId);
  return toNode(await repository.setDraining(db, nodeId, draining));
}

/** Deletes a node that holds no worker (409 `node_has_workers` otherwise). */
export async function deleteNode(db: Database, access: OrgAccess, nodeId: string): Promise<void> {
  await ownNode(db, access, nodeId);
  try {
    await repository.deleteNode(db, nodeId);
  } catch (error) {
    if (isPgError(error) && error.code === PG_FOREIGN_KEY_VIOLATION) {
      throw conflict(
        'node_has_workers',
        'Workers still live on this node: delete them first (drain it to stop new ones)',
        { nodeId },
      );
    }
    throw error;
  }
}

/** The shared built-in node with a fresh token (created on first use). */
export async function ensureSharedNode(
  db: Database,
  name: string,
): Promise<{ node: NodeRow; token: string }> {
  const { token, ...stored } = newToken();
  const existing = await repository.findSharedNode(db, name);
  if (existing !== undefined) {
    return { node: await repository.setToken(db, existing.id, stored), token };
  }
  const node = await repository.insertNode(db, {
    id: newId(),
    org_id: null,
    name,
    public_address: null,
    max_workers: null,
    ...stored,
  });
  return { node, token };
}
