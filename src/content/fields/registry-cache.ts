import { sql } from 'kysely';
import type { Listener } from '../../db/listen.js';
import { PREPARED } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { type Registry, toField } from './registry.js';
import type { FieldConfig } from './schemas.js';

/** What reads of a workspace check against: its fields, statuses in order, lists. */
export interface WorkspaceRegistry {
  /** The workspace's registry version this was read at (`registry_versions`). */
  version: number;
  registry: Registry;
  statusOrder: string[];
  collectionIds: ReadonlySet<string>;
  /** Fields whose `item_values` rows are still being filled in (counts read the cards for them). */
  fillingFieldIds: ReadonlySet<string>;
}

export const REGISTRY_CHANNEL = 'sparrow_registry';

/** How many workspaces' registries an app keeps at most. */
const MAX_WORKSPACES = 2000;

interface LoadedRow {
  version: number | string;
  /** True when the reading transaction has written nothing yet, so it saw only committed rows. */
  clean: boolean;
  fields: Array<{
    id: string;
    key: string;
    type: string;
    name: string;
    config: FieldConfig;
    created_at: string;
    updated_at: string;
  }>;
  statuses: string[];
  collections: string[];
  filling: string[];
}

/** The registry as one statement sees it (one snapshot), with its version. */
async function load(
  db: Database,
  workspaceId: string,
): Promise<WorkspaceRegistry & { committed: boolean }> {
  const { rows } = await sql<LoadedRow>`${PREPARED}
    select coalesce((select version from registry_versions where workspace_id = ${workspaceId}), 0) as version,
      pg_current_xact_id_if_assigned() is null as clean,
      coalesce((select json_agg(f order by f.created_at, f.id) from (
        select id, key, type, name, config, created_at, updated_at from fields
        where workspace_id = ${workspaceId}) as f), '[]') as fields,
      coalesce((select array_agg(id order by position, id) from statuses
        where workspace_id = ${workspaceId}), '{}') as statuses,
      coalesce((select array_agg(id) from collections where workspace_id = ${workspaceId}), '{}') as collections,
      coalesce((select array_agg(field_id) from item_value_backfills
        where workspace_id = ${workspaceId}), '{}') as filling`.execute(db);
  const row = rows[0];
  if (row === undefined) throw new Error('the registry statement answered no row');
  const fields = row.fields.map((field) =>
    toField({
      ...field,
      created_at: new Date(field.created_at),
      updated_at: new Date(field.updated_at),
    }),
  );
  return {
    version: Number(row.version),
    committed: row.clean,
    registry: {
      fields,
      byKey: new Map(fields.map((field) => [field.key, field])),
      byId: new Map(fields.map((field) => [field.id, field])),
    },
    statusOrder: row.statuses,
    collectionIds: new Set(row.collections),
    fillingFieldIds: new Set(row.filling),
  };
}

/**
 * The app's registries by workspace, each kept while its version is the
 * workspace's current one: a request reads the version with its
 * authorization (one statement) and reloads on a mismatch, so no stale
 * registry is ever used; a `sparrow_registry` notification (any server
 * process) evicts at once, so memory does not keep what changed.
 */
export class RegistryCache {
  readonly #entries = new Map<string, WorkspaceRegistry>();
  #stop: (() => Promise<void>) | undefined;

  /** Starts evicting on notifications; a failure to listen only costs reloads, never correctness. */
  async start(listener: Listener): Promise<void> {
    this.#stop = await listener.listen(REGISTRY_CHANNEL, (workspaceId) => {
      if (workspaceId === null) this.#entries.clear();
      else this.#entries.delete(workspaceId);
    });
  }

  async stop(): Promise<void> {
    await this.#stop?.();
    this.#entries.clear();
  }

  /** Whether the workspace's registry is held (tests of eviction). */
  holds(workspaceId: string): boolean {
    return this.#entries.has(workspaceId);
  }

  /** The registry at `version` (as just read with the request's authorization), else the current one. */
  async get(db: Database, workspaceId: string, version?: number): Promise<WorkspaceRegistry> {
    const known = this.#entries.get(workspaceId);
    if (known !== undefined && version !== undefined && known.version === version) return known;
    // A write that holds the registry lock read `version` after taking it, so a held entry
    // of that version is what it must validate against. What a transaction reads is kept
    // only if it had written nothing yet: then it saw committed rows, not its own changes.
    const { committed, ...loaded } = await load(db, workspaceId);
    if (!committed) return loaded;
    const current = this.#entries.get(workspaceId);
    if (current === undefined || current.version <= loaded.version) {
      this.#entries.delete(workspaceId);
      this.#entries.set(workspaceId, loaded);
      // Bounded: the workspaces loaded longest ago go first (a Map keeps insertion order).
      for (const oldest of this.#entries.keys()) {
        if (this.#entries.size <= MAX_WORKSPACES) break;
        this.#entries.delete(oldest);
      }
    }
    return loaded;
  }
}

/** The registry of the caller's workspace: from the app's cache when the request carries one. */
export async function workspaceRegistry(
  db: Database,
  access: { workspaceId: string; registryVersion?: number; registries?: RegistryCache },
): Promise<WorkspaceRegistry> {
  if (access.registries === undefined) {
    const { committed: _, ...loaded } = await load(db, access.workspaceId);
    return loaded;
  }
  return access.registries.get(db, access.workspaceId, access.registryVersion);
}
