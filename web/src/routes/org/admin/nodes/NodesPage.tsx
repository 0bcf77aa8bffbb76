import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { nodesQuery } from '../../../../api/nodes.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { StateBadge } from '../../../../components/StateBadge.js';
import { orgRoleAtLeast, useOrg } from '../../context.js';
import { PageTitle } from '../PageTitle.js';
import { NodeActions } from './NodeActions.js';
import { RegisterNode } from './RegisterNode.js';

/**
 * The nodes the organization's workers run on, with their live state (asked
 * again every two seconds). Admins and owners register, rotate, drain and
 * delete their own; a shared node is read-only.
 */
export function NodesPage() {
  const org = useOrg();
  const nodes = useQuery(nodesQuery(org.id));
  const manages = orgRoleAtLeast(org.role, 'admin');
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <PageTitle title="Nodes">
        {manages
          ? 'Machines that run workers. A shared node serves every organization and is read-only here.'
          : `Machines that run workers. Only admins and owners manage nodes; your role is ${org.role}.`}
      </PageTitle>
      {manages ? <RegisterNode /> : null}
      {nodes.isPending ? <p>Loading the nodes…</p> : null}
      {nodes.isError ? <FormAlert message={nodes.error.message} /> : null}
      {nodes.data?.length === 0 ? (
        <p className="text-zinc-700 dark:text-zinc-300">No node yet.</p>
      ) : null}
      {nodes.data && nodes.data.length > 0 ? (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Nodes of {org.name}</caption>
          <thead className="text-zinc-600 dark:text-zinc-400">
            <tr>
              <th scope="col" className="py-2 font-medium">
                Node
              </th>
              <th scope="col" className="py-2 font-medium">
                State
              </th>
              <th scope="col" className="py-2 font-medium">
                Host
              </th>
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {nodes.data.map((node) => (
              <tr
                key={node.id}
                aria-label={node.name}
                className="border-t border-zinc-200 align-top dark:border-zinc-700"
              >
                <td className="py-2 pr-3">
                  <Link
                    to="/orgs/$orgId/nodes/$nodeId"
                    params={{ orgId: org.id, nodeId: node.id }}
                    className="font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
                  >
                    {node.name}
                  </Link>
                  {node.shared ? (
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                      Shared, read-only
                    </span>
                  ) : null}
                </td>
                <td className="py-2 pr-3">
                  <StateBadge state={node.status} />
                  <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                    {node.connected ? 'Agent connected' : 'No agent connected'}
                  </span>
                </td>
                <td className="py-2 pr-3 text-zinc-700 dark:text-zinc-300">
                  {node.hostname ?? '—'}
                </td>
                <td className="py-2">
                  {manages && !node.shared ? <NodeActions node={node} /> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
