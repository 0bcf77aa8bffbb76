import type { Role } from './roles.js';

/**
 * The one permission table of the content API: each action and the lowest
 * role that may perform it. Every workspace route names one of these.
 */
export const PERMISSIONS = {
  'workspace.read': 'viewer',
  'workspace.update': 'admin',
  'workspace.delete': 'owner',
  'members.read': 'viewer',
  'members.manage': 'admin',
  'schema.read': 'viewer',
  'schema.write': 'admin',
  'views.write': 'member',
  'items.read': 'viewer',
  'items.write': 'member',
  'files.read': 'viewer',
  'files.write': 'member',
  'events.read': 'viewer',
  'api_keys.manage': 'admin',
  'webhooks.read': 'admin',
  'webhooks.manage': 'admin',
  'import.run': 'member',
  'invitations.manage': 'admin',
  'apps.manage': 'admin',
} as const satisfies Record<string, Role>;

export type Action = keyof typeof PERMISSIONS;
