import type { Actor } from '../../events/types.js';
import type { Role } from '../access/roles.js';
import type { AppScope } from './scopes.js';

/**
 * An installed app (`spa_` token): acts in its workspace only, with the
 * installation's role (capped by the installer's current role) and scopes.
 */
export interface AppPrincipal {
  kind: 'app';
  label: string;
  appId: string;
  installationId: string;
  workspaceId: string;
  role: Role;
  scopes: readonly AppScope[];
  userId: string;
  actor: Actor;
}

declare module '../../http/principal.js' {
  interface PrincipalKinds {
    app: AppPrincipal;
  }
}
