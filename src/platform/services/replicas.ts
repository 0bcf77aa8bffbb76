import type { Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ServiceReplicasTable } from './tables.js';

export type ReplicaRow = Selectable<ServiceReplicasTable>;

/** The replicas that serve a service's traffic now (its active deploy's, once healthy). */
export async function activeReplicas(db: Database, serviceId: string): Promise<ReplicaRow[]> {
  return db
    .selectFrom('service_replicas')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('state', '=', 'active')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The replicas whose containers still exist (every state but `stopped`). */
export async function liveReplicas(db: Database, serviceId: string): Promise<ReplicaRow[]> {
  return db
    .selectFrom('service_replicas')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('state', '!=', 'stopped')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
