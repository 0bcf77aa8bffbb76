import * as z from 'zod';
import { defineTool, NamedRecord, type Tool } from '../tool.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

export const orgTools: readonly Tool[] = [
  defineTool({
    name: 'list_organizations',
    title: 'List organizations',
    description:
      'The organizations the caller can act in, with the role held in each. An API key sees only its own ' +
      'organization. Use an id from here as orgId when you belong to several.',
    input: {},
    output: {
      organizations: z
        .array(NamedRecord.extend({ role: z.string().optional() }))
        .describe('Each with id, name and role.'),
    },
    annotations: READ,
    run: async (ctx) => {
      const { principal } = ctx.dispatcher;
      const path = principal.kind === 'org_key' ? `/orgs/${principal.orgId}` : '/orgs';
      const body = await ctx.dispatcher.read('list_organizations', { method: 'GET', path });
      const list = z.array(NamedRecord.extend({ role: z.string().optional() }));
      return { organizations: list.parse(Array.isArray(body) ? body : [body]) };
    },
  }),
];
