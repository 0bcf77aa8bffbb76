import { findWorker } from '../workers/repository.js';
import { ToolFailure } from './dispatch.js';
import type { ToolContext } from './tool.js';

interface OrgSummary {
  id: string;
  name: string;
}

function orgList(body: unknown): OrgSummary[] {
  if (!Array.isArray(body)) return [];
  return body.flatMap((org: unknown) =>
    typeof org === 'object' &&
    org !== null &&
    'id' in org &&
    typeof org.id === 'string' &&
    'name' in org &&
    typeof org.name === 'string'
      ? [{ id: org.id, name: org.name }]
      : [],
  );
}

/**
 * The organization a tool acts in: the one given (the REST call then checks
 * the caller may), else an API key's own organization, else a session's only
 * one. A session in several is told which to pick, by name and id.
 */
export async function resolveOrg(
  ctx: ToolContext,
  tool: string,
  orgId: string | undefined,
): Promise<string> {
  if (orgId !== undefined) return orgId;
  const { principal } = ctx.dispatcher;
  if (principal.kind === 'org_key') return principal.orgId;
  const orgs = orgList(await ctx.dispatcher.read(tool, { operation: 'listOrganizations' }));
  const [only] = orgs;
  if (orgs.length === 1 && only !== undefined) return only.id;
  if (orgs.length === 0) {
    throw new ToolFailure('organization_required: you are not a member of any organization.');
  }
  const names = orgs.map((org) => `"${org.name}" (${org.id})`).join(', ');
  throw new ToolFailure(
    `organization_required: you belong to ${orgs.length} organizations; pass orgId, one of: ${names}.`,
  );
}

export interface WorkerRef {
  orgId?: string | undefined;
  projectId?: string | undefined;
  workerId: string;
}

/** The path parameters of a worker's routes. */
export interface WorkerParams {
  orgId: string;
  projectId: string;
  workerId: string;
}

/** The path parameters of a worker given by id alone (or with its project and organization). */
export async function workerParams(
  ctx: ToolContext,
  tool: string,
  ref: WorkerRef,
): Promise<WorkerParams> {
  if (ref.projectId !== undefined) {
    const orgId = await resolveOrg(ctx, tool, ref.orgId);
    return { orgId, projectId: ref.projectId, workerId: ref.workerId };
  }
  // Only the ids are read here; the REST call that follows decides whether the caller may see it.
  const row = await findWorker(ctx.db, ref.workerId);
  const { principal } = ctx.dispatcher;
  const hidden =
    row === undefined ||
    (ref.orgId !== undefined && row.org_id !== ref.orgId) ||
    (principal.kind === 'org_key' && row.org_id !== principal.orgId) ||
    (principal.kind !== 'org_key' && !(await canSeeOrg(ctx, tool, row.org_id)));
  if (hidden) {
    throw new ToolFailure(
      `not_found: worker ${ref.workerId} not found. list_workers or search show the workers you can see.`,
    );
  }
  return { orgId: row.org_id, projectId: row.project_id, workerId: ref.workerId };
}

/**
 * Whether a session may see this organization (GET /orgs/{orgId}, no scope),
 * so that a worker of another one looks like none rather than like a foreign
 * organization.
 */
async function canSeeOrg(ctx: ToolContext, tool: string, orgId: string): Promise<boolean> {
  try {
    await ctx.dispatcher.read(tool, { operation: 'getOrganization', params: { orgId } });
    return true;
  } catch (error) {
    if (error instanceof ToolFailure && error.rest?.status === 404) return false;
    throw error;
  }
}
