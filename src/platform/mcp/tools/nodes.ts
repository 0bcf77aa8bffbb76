import Type from 'typebox';
import { Node } from '../../nodes/schemas.js';
import { resolveOrg } from '../org-resolution.js';
import { ShownNode } from '../records.js';
import { Args, defineTool, Ids, Result, type Tool } from '../tool.js';

const Nodes = Type.Array(Node);

export const nodeTools: readonly Tool[] = [
  defineTool({
    name: 'list_nodes',
    title: 'List nodes',
    description:
      'The compute nodes of an organization, with their status (online or not), whether they drain, ' +
      'and their capacity. Needs nodes:read.',
    input: Args({ orgId: Ids.orgId }),
    output: Result({ nodes: Type.Array(ShownNode) }),
    operations: ['listNodes'],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async (ctx, { orgId }) => {
      const org = await resolveOrg(ctx, 'list_nodes', orgId);
      const nodes = await ctx.dispatcher.readAs(
        'list_nodes',
        { operation: 'listNodes', params: { orgId: org } },
        Nodes,
      );
      return { nodes };
    },
  }),
];
