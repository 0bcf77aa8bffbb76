/** Who is calling. Every kind carries a label, frozen into the events it causes. */
export interface BasePrincipal {
  kind: string;
  /** Human-readable name of the caller (a user's name, a key's name). */
  label: string;
}

/** A person signed in with a session token (header or `session` cookie). */
export interface UserPrincipal extends BasePrincipal {
  kind: 'user';
  userId: string;
  sessionId: string;
}

/**
 * The kinds of principal, by `kind`. Modules that add a credential (API keys,
 * app installations) add their principal here through declaration merging.
 */
export interface PrincipalKinds {
  user: UserPrincipal;
}

export type Principal = PrincipalKinds[keyof PrincipalKinds];
