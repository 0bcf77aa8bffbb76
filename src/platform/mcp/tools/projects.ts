import * as z from 'zod';
import { resolveOrg } from '../org-resolution.js';
import { defineTool, Ids, NamedRecord, type Tool } from '../tool.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const Project = NamedRecord.extend({
  description: z.string().nullable(),
  repositories: z.array(z.looseObject({ url: z.string() })),
}).describe('A project: the development environment its workers are spawned from.');

export const projectTools: readonly Tool[] = [
  defineTool({
    name: 'list_projects',
    title: 'List projects',
    description:
      'The projects of an organization: the development environments (repositories, features, ' +
      'forwarded ports) that workers are spawned from. Needs projects:read.',
    input: { orgId: Ids.orgId },
    output: { projects: z.array(Project) },
    annotations: READ,
    run: async (ctx, { orgId }) => {
      const org = await resolveOrg(ctx, 'list_projects', orgId);
      const body = await ctx.dispatcher.read('list_projects', {
        method: 'GET',
        path: `/orgs/${org}/projects`,
      });
      return { projects: z.array(Project).parse(body) };
    },
  }),
  defineTool({
    name: 'get_project',
    title: 'Get a project',
    description:
      'One project: its repositories, features, extensions, forwarded ports and secret names ' +
      '(values are never returned). Needs projects:read.',
    input: { orgId: Ids.orgId, projectId: Ids.projectId },
    output: { project: Project },
    annotations: READ,
    run: async (ctx, { orgId, projectId }) => {
      const org = await resolveOrg(ctx, 'get_project', orgId);
      const body = await ctx.dispatcher.read('get_project', {
        method: 'GET',
        path: `/orgs/${org}/projects/${projectId}`,
      });
      return { project: Project.parse(body) };
    },
  }),
];
