import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fieldsQuery, membersQuery, statusesQuery } from '../../../../api/registry.js';
import type { Lookups } from './Cell.js';

/** The registry, statuses and members by id, for cells; undefined until all three arrived. */
export function useLookups(workspaceId: string): Lookups | undefined {
  const fields = useQuery(fieldsQuery(workspaceId));
  const statuses = useQuery(statusesQuery(workspaceId));
  const members = useQuery(membersQuery(workspaceId));
  return useMemo(() => {
    if (fields.data === undefined || statuses.data === undefined || members.data === undefined) {
      return undefined;
    }
    return {
      fields: new Map(fields.data.map((field) => [field.id, field])),
      statuses: new Map(statuses.data.map((status) => [status.id, status])),
      members: new Map(members.data.map((member) => [member.userId, member])),
    };
  }, [fields.data, statuses.data, members.data]);
}
