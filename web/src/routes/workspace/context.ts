import { useSuspenseQuery } from '@tanstack/react-query';
import { useLoaderData } from '@tanstack/react-router';
import type { components } from '../../api/schema.js';
import { workspacesQuery } from '../../api/workspaces.js';

export type Workspace = components['schemas']['WorkspaceMembership'];

/**
 * The workspace of the screen (the `$workspaceSlug` in the address), with
 * the signed-in person's role in it. Only inside the workspace's screens.
 */
export function useWorkspace(): Workspace {
  const { workspaceId } = useLoaderData({ from: '/signed-in/$workspaceSlug' });
  const { data } = useSuspenseQuery(workspacesQuery);
  const workspace = data.find((candidate) => candidate.id === workspaceId);
  if (workspace === undefined) throw new Error('useWorkspace: the workspace is no longer listed');
  return workspace;
}

const RANKS = { viewer: 0, member: 1, admin: 2, owner: 3 } as const;

/** Whether the role is at least the given one (viewer < member < admin < owner). */
export function roleAtLeast(role: Workspace['role'], least: Workspace['role']): boolean {
  return RANKS[role] >= RANKS[least];
}
