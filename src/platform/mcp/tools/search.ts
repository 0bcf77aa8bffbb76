import Type, { type Static, type TSchema } from 'typebox';
import { Deployment } from '../../deployments/schemas.js';
import { Node } from '../../nodes/schemas.js';
import { Project } from '../../projects/schemas.js';
import { Service } from '../../services/schemas.js';
import { Worker } from '../../workers/schemas.js';
import { ToolFailure } from '../dispatch.js';
import { resolveOrg } from '../org-resolution.js';
import { Args, defineTool, Ids, Result, type Tool, type ToolContext } from '../tool.js';

const KINDS = ['project', 'worker', 'deployment', 'service', 'node'] as const;
type Kind = (typeof KINDS)[number];

const KindSchema = Type.Enum(KINDS);

const Match = Type.Object({
  kind: KindSchema,
  id: Type.String(),
  name: Type.String(),
  projectId: Type.Optional(Type.String()),
  deploymentId: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
});
type Match = Static<typeof Match>;

/** What a match is made of: a record of any listed kind. */
interface Listed {
  id: string;
  name: string;
  projectId?: string;
  deploymentId?: string;
  state?: string;
  status?: string;
}

const Projects = Type.Array(Project);
const Workers = Type.Array(Worker);
const Deployments = Type.Array(Deployment);
const Services = Type.Array(Service);
const Nodes = Type.Array(Node);

/** A REST list, or null when the caller may not list this kind (its scope is missing). */
async function listOrSkip<S extends TSchema>(
  ctx: ToolContext,
  schema: S,
  operation: string,
  params: Record<string, string>,
  query?: Record<string, string>,
): Promise<Static<S> | null> {
  try {
    return await ctx.dispatcher.readAs('search', { operation, params, query }, schema);
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
    input: Args({
      orgId: Ids.orgId,
      query: Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Part of a name.',
        examples: ['api'],
      }),
      kinds: Type.Optional(
        Type.Array(KindSchema, {
          minItems: 1,
          description: 'Only these kinds; default: all.',
          examples: [['worker', 'service']],
        }),
      ),
    }),
    output: Result({
      results: Type.Array(Match),
      skipped: Type.Array(KindSchema, {
        description: 'Kinds not searched because the caller lacks their read scope.',
      }),
    }),
    operations: ['listProjects', 'listWorkers', 'listDeployments', 'searchServices', 'listNodes'],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async (ctx, { orgId, query, kinds }) => {
      const org = await resolveOrg(ctx, 'search', orgId);
      const params = { orgId: org };
      const wanted = new Set<Kind>(kinds ?? KINDS);
      const needle = query.toLowerCase();
      const results: Match[] = [];
      const skipped: Kind[] = [];
      const add = (kind: Kind, list: readonly Listed[] | null) => {
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
      const projects = needProjects ? await listOrSkip(ctx, Projects, 'listProjects', params) : [];
      if (wanted.has('project')) add('project', projects);
      if (wanted.has('worker')) {
        if (projects === null) skipped.push('worker');
        else {
          const lists = await Promise.all(
            projects.map((project) =>
              listOrSkip(ctx, Workers, 'listWorkers', { ...params, projectId: project.id }),
            ),
          );
          add('worker', lists.some((list) => list === null) ? null : lists.flatMap((l) => l ?? []));
        }
      }
      if (wanted.has('deployment')) {
        add(
          'deployment',
          await listOrSkip(ctx, Deployments, 'listDeployments', params, { q: query }),
        );
      }
      if (wanted.has('service')) {
        add('service', await listOrSkip(ctx, Services, 'searchServices', params, { q: query }));
      }
      if (wanted.has('node')) add('node', await listOrSkip(ctx, Nodes, 'listNodes', params));
      return { results, skipped };
    },
  }),
];
