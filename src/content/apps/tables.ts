import type { ColumnType, Generated } from 'kysely';

export interface OAuthAppsTable {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  client_id: string;
  /** SHA-256 of the client secret (a random 32-byte token); shown once. */
  client_secret_hash: string;
  redirect_uris: string[];
  /** The scopes the app asks for; an installation gets a subset. */
  scopes: string[];
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface AppInstallationsTable {
  id: string;
  app_id: string;
  workspace_id: string;
  installed_by: string;
  role: string;
  scopes: string[];
  token_hash: string;
  token_prefix: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface OAuthAuthorizationCodesTable {
  id: string;
  code_hash: string;
  app_id: string;
  workspace_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: string[];
  role: string;
  /** BASE64URL(SHA-256(code_verifier)), PKCE method S256. */
  code_challenge: string;
  created_at: Generated<Date>;
  expires_at: Date;
  consumed_at: Date | null;
  installation_id: string | null;
}

declare module '../../db/schema.js' {
  interface DB {
    oauth_apps: OAuthAppsTable;
    app_installations: AppInstallationsTable;
    oauth_authorization_codes: OAuthAuthorizationCodesTable;
  }
}
