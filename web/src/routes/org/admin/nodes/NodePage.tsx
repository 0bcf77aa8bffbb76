import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { formatMoment } from '../../../../api/events.js';
import { nodeQuery } from '../../../../api/nodes.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { StateBadge } from '../../../../components/StateBadge.js';
import { orgRoleAtLeast, useOrg } from '../../context.js';
import { capacityText, engineText } from './describe.js';
import { NodeActions } from './NodeActions.js';
import { NodeInventory } from './NodeInventory.js';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

/** One node: its state and what its agent reported, the live container inventory, the actions. */
export function NodePage() {
  const org = useOrg();
  const { nodeId } = useParams({ from: '/signed-in/orgs/$orgId/nodes/$nodeId' });
  const node = useQuery(nodeQuery(org.id, nodeId));
  const manages = orgRoleAtLeast(org.role, 'admin');
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <Link
        to="/orgs/$orgId/nodes"
        params={{ orgId: org.id }}
        className="self-start text-sm text-blue-700 underline-offset-2 hover:underline dark:text-blue-300"
      >
        ← All nodes
      </Link>
      {node.isPending ? <p>Loading the node…</p> : null}
      {node.isError ? <FormAlert message={node.error.message} /> : null}
      {node.data ? (
        <>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="flex flex-col gap-1">
              <h1 className="flex items-center gap-3 text-2xl font-semibold">
                {node.data.name} <StateBadge state={node.data.status} />
              </h1>
              {node.data.shared ? (
                <p className="text-sm text-zinc-700 dark:text-zinc-300">
                  Shared by every organization: read-only here.
                </p>
              ) : null}
            </div>
            {manages && !node.data.shared ? <NodeActions node={node.data} leaveOnDelete /> : null}
          </div>
          <dl className="grid gap-4 rounded-xl border border-zinc-200 bg-white p-6 sm:grid-cols-2 lg:grid-cols-3 dark:border-zinc-700 dark:bg-zinc-900">
            <Fact term="Status">{node.data.status}</Fact>
            <Fact term="Agent">{node.data.connected ? 'Connected' : 'Not connected'}</Fact>
            <Fact term="Hostname">{node.data.hostname ?? 'Not reported yet'}</Fact>
            <Fact term="Engine">{engineText(node.data.engine)}</Fact>
            <Fact term="Capacity">{capacityText(node.data.capacity)}</Fact>
            <Fact term="Agent version">{node.data.agentVersion ?? 'Not reported yet'}</Fact>
            <Fact term="Last seen">
              {node.data.lastSeenAt === null ? 'Never' : formatMoment(node.data.lastSeenAt)}
            </Fact>
            <Fact term="Token">
              <code>{node.data.tokenPrefix}…</code>
            </Fact>
            <Fact term="Draining since">
              {node.data.drainingSince === null
                ? 'Not draining'
                : formatMoment(node.data.drainingSince)}
            </Fact>
          </dl>
          <NodeInventory orgId={org.id} nodeId={node.data.id} />
        </>
      ) : null}
    </div>
  );
}
