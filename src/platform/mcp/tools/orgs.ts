import Type from 'typebox';
import { Organization } from '../../orgs/schemas.js';
import { ShownOrganization } from '../records.js';
import { Args, defineTool, Result, type Tool } from '../tool.js';
import { conform } from '../values.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const Organizations = Type.Array(Organization);

export const orgTools: readonly Tool[] = [
  defineTool({
    name: 'list_organizations',
    title: 'List organizations',
    description:
      'The organizations the caller can act in, with the role held in each. An API key sees only its own ' +
      'organization. Use an id from here as orgId when you belong to several.',
    input: Args({}),
    output: Result({
      organizations: Type.Array(ShownOrganization, { description: 'Each with id, name and role.' }),
    }),
    operations: ['listOrganizations', 'getOrganization'],
    annotations: READ,
    run: async (ctx) => {
      const { principal } = ctx.dispatcher;
      const body =
        principal.kind === 'org_key'
          ? await ctx.dispatcher.read('list_organizations', {
              operation: 'getOrganization',
              params: { orgId: principal.orgId },
            })
          : await ctx.dispatcher.read('list_organizations', { operation: 'listOrganizations' });
      const list = Array.isArray(body) ? body : [body];
      return { organizations: conform('list_organizations', Organizations, list) };
    },
  }),
];
