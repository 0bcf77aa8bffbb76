import * as z from 'zod';
import { resolveOrg } from '../org-resolution.js';
import { defineTool, Ids, NamedRecord, type Tool } from '../tool.js';

const Node = NamedRecord.extend({
  status: z.string().describe('online, offline, ...'),
  draining: z.boolean(),
}).describe('A compute node that runs workers and services.');

export const nodeTools: readonly Tool[] = [
  defineTool({
    name: 'list_nodes',
    title: 'List nodes',
    description:
      'The compute nodes of an organization, with their status (online or not), whether they drain, ' +
      'and their capacity. Needs nodes:read.',
    input: { orgId: Ids.orgId },
    output: { nodes: z.array(Node) },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async (ctx, { orgId }) => {
      const org = await resolveOrg(ctx, 'list_nodes', orgId);
      const body = await ctx.dispatcher.read('list_nodes', {
        method: 'GET',
        path: `/orgs/${org}/nodes`,
      });
      return { nodes: z.array(Node).parse(body) };
    },
  }),
];
