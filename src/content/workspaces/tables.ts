import type { ColumnType, Generated } from 'kysely';

export interface WorkspacesTable {
  id: string;
  name: string;
  slug: string;
  cover_layout: string;
  /** The last item number handed out; numbers are never reused. */
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: string;
  avatar_file_id: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    workspaces: WorkspacesTable;
    workspace_members: WorkspaceMembersTable;
  }
}
