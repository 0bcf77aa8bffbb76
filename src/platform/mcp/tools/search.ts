import * as z from 'zod';
import { ToolFailure } from '../dispatch.js';
import { resolveOrg } from '../org-resolution.js';
import { defineTool, Ids, NamedRecord, type Tool, type ToolContext } from '../tool.js';

const KINDS = ['project', 'worker', 'deployment', 'service', 'node'] as const;
type Kind = (typeof KINDS)[number];

const Match = z.looseObject({
  kind: z.enum(KINDS),
  id: z.string(),
  name: z.string(),
  projectId: z.string().optional(),
  deploymentId: z.string().optional(),
  state: z.string().optional(),
});
type Match = z.output<typeof Match>;

const Listed = z.array(
  NamedRecord.extend({
    projectId: z.string().optional(),
    deploymentId: z.string().optional(),
    state: z.string().optional(),
    status: z.string().optional(),
  }),
);

/** A REST list, or null when the caller may not list this kind (its scope is missing). */
async function listOrSkip(ctx: ToolContext, path: string, query?: Record<string, string>) {
  try {
    return Listed.parse(await ctx.dispatcher.read('search', { method: 'GET', path, query }));
  } catch (error) {
    if (error instanceof ToolFailure && error.rest?.status === 403) return null;
    throw error;
  }
}

export const searchTools: readonly Tool[] = [
  defineTool({
    name: 'search',
    title: 'Search by name',
    description:
      'Finds projects, workers (the workspaces spawned from projects), deployments, services and nodes whose ' +
      'name contains the query (case-insensitive), among what the caller may see. Kinds the caller has no read ' +
      'scope for are left out and named in skipped. Content-API workspaces are another API and not searched.',
    input: {
      orgId: Ids.orgId,
      query: z
        .string()
        .min(1)
        .max(100)
        .describe('Part of a name.')
        .meta({ examples: ['api'] }),
      kinds: z
        .array(z.enum(KINDS))
        .min(1)
        .optional()
        .describe('Only these kinds; default: all.')
        .meta({ examples: [['worker', 'service']] }),
    },
    output: {
      results: z.array(Match),
      skipped: z
        .array(z.enum(KINDS))
        .describe('Kinds not searched because the caller lacks their read scope.'),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async (ctx, { orgId, query, kinds }) => {
      const org = await resolveOrg(ctx, 'search', orgId);
      const wanted = new Set<Kind>(kinds ?? KINDS);
      const needle = query.toLowerCase();
      const results: Match[] = [];
      const skipped: Kind[] = [];
      const add = (kind: Kind, list: z.output<typeof Listed> | null) => {
        if (list === null) {
          skipped.push(kind);
          return;
        }
        for (const row of list) {
          if (!row.name.toLowerCase().includes(needle)) continue;
          const { id, name, projectId, deploymentId } = row;
          const state = row.state ?? row.status;
          results.push({
            kind,
            id,
            name,
            ...(projectId === undefined || kind !== 'worker' ? {} : { projectId }),
            ...(deploymentId === undefined || kind !== 'service' ? {} : { deploymentId }),
            ...(state === undefined ? {} : { state }),
          });
        }
      };
      const needProjects = wanted.has('project') || wanted.has('worker');
      const projects = needProjects ? await listOrSkip(ctx, `/orgs/${org}/projects`) : [];
      if (wanted.has('project')) add('project', projects);
      if (wanted.has('worker')) {
        if (projects === null) skipped.push('worker');
        else {
          const lists = await Promise.all(
            projects.map((project) =>
              listOrSkip(ctx, `/orgs/${org}/projects/${project.id}/workers`),
            ),
          );
          add('worker', lists.some((list) => list === null) ? null : lists.flatMap((l) => l ?? []));
        }
      }
      if (wanted.has('deployment')) {
        add('deployment', await listOrSkip(ctx, `/orgs/${org}/deployments`, { q: query }));
      }
      if (wanted.has('service')) {
        add('service', await listOrSkip(ctx, `/orgs/${org}/services`, { q: query }));
      }
      if (wanted.has('node')) add('node', await listOrSkip(ctx, `/orgs/${org}/nodes`));
      return { results, skipped };
    },
  }),
];
