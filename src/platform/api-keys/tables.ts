import type { Generated } from 'kysely';

export type ApiKeyOwnerType = 'user' | 'org';

export interface OrgApiKeysTable {
  id: string;
  org_id: string;
  name: string;
  owner_type: ApiKeyOwnerType;
  /** The account that created the key; null once that account is deleted. */
  created_by: string | null;
  /**
   * Personal keys: the creator's membership when the key was made. It turns
   * null when they leave (and a new membership gets a new id), which ends the key.
   */
  member_id: string | null;
  scopes: string[];
  /** SHA-256 of the token, lowercase hex; the token itself is never stored. */
  token_hash: string;
  /** `spk_` and the next 4 characters: the only part of the token shown again. */
  token_prefix: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

declare module '../../db/schema.js' {
  interface DB {
    org_api_keys: OrgApiKeysTable;
  }
}
