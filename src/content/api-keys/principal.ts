import type { Actor } from '../../events/types.js';
import type { Role } from '../access/roles.js';

/** A workspace API key: acts in its own workspace only, with its role capped by its creator's. */
export interface WorkspaceKeyPrincipal {
  kind: 'workspace_key';
  label: string;
  keyId: string;
  workspaceId: string;
  role: Role;
  userId: string;
  actor: Actor;
}

declare module '../../http/principal.js' {
  interface PrincipalKinds {
    workspace_key: WorkspaceKeyPrincipal;
  }
}
