import Type from 'typebox';
import { Project } from '../../projects/schemas.js';
import { resolveOrg } from '../org-resolution.js';
import { ShownProject } from '../records.js';
import { Args, defineTool, Ids, Result, type Tool } from '../tool.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const Projects = Type.Array(Project);

export const projectTools: readonly Tool[] = [
  defineTool({
    name: 'list_projects',
    title: 'List projects',
    description:
      'The projects of an organization: the development environments (repositories, features, ' +
      'forwarded ports) that workers are spawned from. Needs projects:read.',
    input: Args({ orgId: Ids.orgId }),
    output: Result({ projects: Type.Array(ShownProject) }),
    operations: ['listProjects'],
    annotations: READ,
    run: async (ctx, { orgId }) => {
      const org = await resolveOrg(ctx, 'list_projects', orgId);
      const projects = await ctx.dispatcher.readAs(
        'list_projects',
        { operation: 'listProjects', params: { orgId: org } },
        Projects,
      );
      return { projects };
    },
  }),
  defineTool({
    name: 'get_project',
    title: 'Get a project',
    description:
      'One project: its repositories, features, extensions, forwarded ports and secret names ' +
      '(values are never returned). Needs projects:read.',
    input: Args({ orgId: Ids.orgId, projectId: Ids.projectId }),
    output: Result({ project: ShownProject }),
    operations: ['getProject'],
    annotations: READ,
    run: async (ctx, { orgId, projectId }) => {
      const org = await resolveOrg(ctx, 'get_project', orgId);
      const project = await ctx.dispatcher.readAs(
        'get_project',
        { operation: 'getProject', params: { orgId: org, projectId } },
        Project,
      );
      return { project };
    },
  }),
];
