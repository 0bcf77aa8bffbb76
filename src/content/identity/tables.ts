import type { Generated } from 'kysely';

/** A link between an account and an identity-provider account. */
export interface UserIdentitiesTable {
  id: string;
  user_id: string;
  issuer: string;
  /** The provider's stable subject identifier: never returned by the API. */
  subject: string;
  email: string | null;
  created_at: Generated<Date>;
  last_used_at: Date | null;
}

/** A browser sign-in in progress (authorization code flow with PKCE), for 10 minutes. */
export interface IdpLoginStatesTable {
  id: string;
  state_hash: string;
  code_verifier: string;
  nonce: string;
  invitation: string | null;
  return_to: string;
  created_at: Generated<Date>;
  expires_at: Date;
}

declare module '../../db/schema.js' {
  interface DB {
    user_identities: UserIdentitiesTable;
    idp_login_states: IdpLoginStatesTable;
  }
}
