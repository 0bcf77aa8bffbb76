import type { ColumnType, Generated } from 'kysely';
import type { OrgRole } from '../access/roles.js';

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** One row per member; a user who leaves and comes back gets a new row (and a new id). */
export interface OrganizationMembersTable {
  id: string;
  org_id: string;
  user_id: string;
  role: OrgRole;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    organizations: OrganizationsTable;
    organization_members: OrganizationMembersTable;
  }
}
