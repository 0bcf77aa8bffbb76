import type { Generated } from 'kysely';

/** An organization's access version: bumped by triggers on every change that can take access away. */
export interface AccessVersionsTable {
  org_id: string;
  version: string | number;
}

/** A one-time code that turns a platform sign-in into a service-domain session. */
export interface ServiceAccessCodesTable {
  /** SHA-256 of the code; the code itself is never stored. */
  code_hash: string;
  service_id: string;
  user_id: string;
  /** The platform session that signed in: signing it out ends what it opened. */
  session_id: string;
  /** SHA-256 of the state cookie set on the service's domain when the sign-in began. */
  state_hash: string;
  /** The path (and query) on the service to return to. */
  return_to: string;
  expires_at: Date;
}

/** A session on one service's domain (the `sparrow_access` cookie there). */
export interface ServiceSessionsTable {
  id: string;
  token_hash: string;
  service_id: string;
  user_id: string;
  session_id: string;
  created_at: Generated<Date>;
  expires_at: Date;
}

declare module '../../db/schema.js' {
  interface DB {
    access_versions: AccessVersionsTable;
    service_access_codes: ServiceAccessCodesTable;
    service_sessions: ServiceSessionsTable;
  }
}
