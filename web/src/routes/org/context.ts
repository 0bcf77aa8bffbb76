import { useSuspenseQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { type Organization, orgsQuery } from '../../api/orgs.js';

/**
 * The organization of the screen (the `$orgId` in the address), with the
 * signed-in person's role in it. Only inside the organization's screens.
 */
export function useOrg(): Organization {
  const { orgId } = useParams({ from: '/signed-in/orgs/$orgId' });
  const { data } = useSuspenseQuery(orgsQuery);
  const org = data.find((candidate) => candidate.id === orgId);
  if (org === undefined) throw new Error('useOrg: the organization is no longer listed');
  return org;
}

const RANKS = { member: 0, admin: 1, owner: 2 } as const;

/** Whether the role is at least the given one (member < admin < owner). */
export function orgRoleAtLeast(role: Organization['role'], least: Organization['role']): boolean {
  return RANKS[role] >= RANKS[least];
}
