import { createSparrowClient, type Schema, type SparrowClient, unwrap } from '@sparrow/client';
import { type Credentials, resolveCredentials } from './config.js';
import { CliError, usageError } from './errors.js';

export type Organization = Schema<'Organization'>;
export type Project = Schema<'Project'>;
export type Worker = Schema<'Worker'>;

/** The client of the credentials in use (the environment's, else the stored login). */
export async function connect(): Promise<{ client: SparrowClient; credentials: Credentials }> {
  const credentials = await resolveCredentials();
  return { client: clientFor(credentials.url, credentials.token), credentials };
}

export function clientFor(url: string, token?: string): SparrowClient {
  return createSparrowClient({ baseUrl: url, token, fetch: reachable(url) });
}

/** `fetch`, with a network failure said in words (which server could not be reached). */
function reachable(url: string): typeof fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new CliError(`Cannot reach ${url}: ${reason}`);
    }
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one element named `ref` (by id, else by name), or a usage error that says why not. */
function pick<T extends { id: string; name: string }>(
  items: readonly T[],
  ref: string,
  kind: string,
): T {
  const byId = items.find((item) => item.id === ref);
  if (byId !== undefined) return byId;
  const named = items.filter((item) => item.name === ref);
  const [only] = named;
  if (named.length === 1 && only !== undefined) return only;
  if (named.length > 1) throw usageError(`Several ${kind}s are named "${ref}": give the id`);
  throw new CliError(`No ${kind} "${ref}" (by id or name)`);
}

/**
 * `--org` by id or name; left out, the only organization of the caller (an
 * organization key sees its own one).
 */
export async function resolveOrg(
  client: SparrowClient,
  ref: string | undefined,
): Promise<Organization> {
  const orgs = await unwrap(client.GET('/api/orgs'));
  if (ref !== undefined) return pick(orgs, ref, 'organization');
  const [only] = orgs;
  if (orgs.length === 1 && only !== undefined) return only;
  throw usageError(
    orgs.length === 0
      ? 'You belong to no organization yet'
      : `--org is required: you belong to ${orgs.length} organizations`,
  );
}

export async function listProjects(client: SparrowClient, orgId: string): Promise<Project[]> {
  return unwrap(client.GET('/api/orgs/{orgId}/projects', { params: { path: { orgId } } }));
}

export async function resolveProject(
  client: SparrowClient,
  orgId: string,
  ref: string,
): Promise<Project> {
  if (UUID.test(ref)) {
    return unwrap(
      client.GET('/api/orgs/{orgId}/projects/{projectId}', {
        params: { path: { orgId, projectId: ref } },
      }),
    );
  }
  return pick(await listProjects(client, orgId), ref, 'project');
}

export async function listWorkers(
  client: SparrowClient,
  orgId: string,
  projectId: string,
): Promise<Worker[]> {
  return unwrap(
    client.GET('/api/orgs/{orgId}/projects/{projectId}/workers', {
      params: { path: { orgId, projectId } },
    }),
  );
}

/** The workers of one project, or of every project of the organization. */
export async function workersOf(
  client: SparrowClient,
  orgId: string,
  projectRef: string | undefined,
): Promise<Worker[]> {
  const projects =
    projectRef === undefined
      ? await listProjects(client, orgId)
      : [await resolveProject(client, orgId, projectRef)];
  const lists = await Promise.all(
    projects.map((project) => listWorkers(client, orgId, project.id)),
  );
  return lists.flat();
}

/** A worker by id or name, in `--project` when given, else across the organization's projects. */
export async function resolveWorker(
  client: SparrowClient,
  orgId: string,
  projectRef: string | undefined,
  ref: string,
): Promise<Worker> {
  return pick(await workersOf(client, orgId, projectRef), ref, 'worker');
}
