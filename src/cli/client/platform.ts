import { type Schema, unwrap } from '@sparrow/client';
import {
  connect,
  listProjects,
  resolveOrg,
  resolveProject,
  resolveWorker,
  type Worker,
  workersOf,
} from './api.js';
import { CliError, usageError } from './errors.js';
import { type OutputOptions, printJson, printList, printOne } from './output.js';

export interface OrgOptions extends OutputOptions {
  org?: string;
}

export interface ProjectOptions extends OrgOptions {
  project?: string;
}

export async function listOrgs(options: OutputOptions): Promise<void> {
  const { client } = await connect();
  const orgs = await unwrap(client.GET('/api/orgs'));
  printList(options, orgs, ['ID', 'NAME', 'ROLE'], (org) => [org.id, org.name, org.role]);
}

export async function createOrg(name: string, options: OutputOptions): Promise<void> {
  const { client } = await connect();
  const org = await unwrap(client.POST('/api/orgs', { body: { name } }));
  printOne(options, org, () => `Created organization ${org.name} (${org.id})`);
}

export async function projectsList(options: OrgOptions): Promise<void> {
  const { client } = await connect();
  const org = await resolveOrg(client, options.org);
  const projects = await listProjects(client, org.id);
  printList(options, projects, ['ID', 'NAME', 'DESCRIPTION'], (project) => [
    project.id,
    project.name,
    project.description,
  ]);
}

export async function projectsCreate(
  name: string,
  options: OrgOptions & { description?: string },
): Promise<void> {
  const { client } = await connect();
  const org = await resolveOrg(client, options.org);
  const project = await unwrap(
    client.POST('/api/orgs/{orgId}/projects', {
      params: { path: { orgId: org.id } },
      body: { name, description: options.description },
    }),
  );
  printOne(
    options,
    project,
    () => `Created project ${project.name} (${project.id}) in ${org.name}`,
  );
}

const WORKER_COLUMNS = ['ID', 'NAME', 'STATE', 'BRANCH', 'PROJECT'];
const workerRow = (worker: Worker) => [
  worker.id,
  worker.name,
  worker.stateReason ? `${worker.state} (${worker.stateReason})` : worker.state,
  worker.branch,
  worker.projectId,
];

export async function workersList(options: ProjectOptions): Promise<void> {
  const { client } = await connect();
  const org = await resolveOrg(client, options.org);
  const workers = await workersOf(client, org.id, options.project);
  printList(options, workers, WORKER_COLUMNS, workerRow);
}

export async function workersCreate(
  options: OrgOptions & { project: string; branch?: string; name?: string; wait?: boolean },
): Promise<void> {
  const { client } = await connect();
  const org = await resolveOrg(client, options.org);
  const project = await resolveProject(client, org.id, options.project);
  const worker = await unwrap(
    client.POST('/api/orgs/{orgId}/projects/{projectId}/workers', {
      params: { path: { orgId: org.id, projectId: project.id }, query: { wait: options.wait } },
      body: { branch: options.branch, name: options.name },
    }),
  );
  printOne(options, worker, () => `Worker ${worker.name} (${worker.id}): ${worker.state}`);
  if (options.wait && worker.state === 'failed') {
    throw new CliError(`The worker failed: ${worker.stateReason ?? 'no reason given'}`);
  }
}

type Move = 'start' | 'stop' | 'delete';

export async function workersMove(
  move: Move,
  ref: string,
  options: ProjectOptions & { wait?: boolean },
): Promise<void> {
  const { client } = await connect();
  const org = await resolveOrg(client, options.org);
  const found = await resolveWorker(client, org.id, options.project, ref);
  const path = { orgId: org.id, projectId: found.projectId, workerId: found.id };
  const query = { wait: options.wait };
  const worker =
    move === 'delete'
      ? await unwrap(
          client.DELETE('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}', {
            params: { path, query },
          }),
        )
      : await unwrap(
          client.POST(`/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/${move}`, {
            params: { path, query },
          }),
        );
  if (options.json) return printJson(worker ?? { id: found.id, deleted: true });
  const state = worker === undefined ? 'deleted' : worker.state;
  process.stdout.write(`Worker ${found.name} (${found.id}): ${state}\n`);
}

export async function exec(
  ref: string,
  command: string[],
  options: ProjectOptions & { workdir?: string; timeout?: number; stdin?: boolean },
): Promise<void> {
  const { client } = await connect();
  const org = await resolveOrg(client, options.org);
  const worker = await resolveWorker(client, org.id, options.project, ref);
  const stdin = options.stdin ? await readAll(process.stdin) : undefined;
  const result = await unwrap(
    client.POST('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/exec', {
      params: { path: { orgId: org.id, projectId: worker.projectId, workerId: worker.id } },
      body: { command, workdir: options.workdir, timeoutMs: options.timeout, stdin },
    }),
  );
  if (!('stdout' in result)) throw new CliError('The server ran the command in the background');
  if (options.json) printJson(result);
  else {
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    if (result.truncated)
      process.stderr.write('sparrow: the output was truncated (4 MiB a stream)\n');
    if (result.timedOut) process.stderr.write('sparrow: the command timed out and was killed\n');
  }
  // The command's own status; killed after its timeout, 124 as timeout(1) says.
  process.exitCode = result.timedOut ? 124 : (result.exitCode ?? 1);
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

type ApiKey = Schema<'ApiKey'>;

export async function keysList(options: OrgOptions): Promise<void> {
  const { client } = await connect();
  const org = await resolveOrg(client, options.org);
  const keys = await unwrap(
    client.GET('/api/orgs/{orgId}/api-keys', { params: { path: { orgId: org.id } } }),
  );
  printList(options, keys, ['ID', 'NAME', 'OWNER', 'SCOPES', 'PREFIX', 'ACTIVE'], (key: ApiKey) => [
    key.id,
    key.name,
    key.ownerType,
    key.scopes.join(','),
    key.tokenPrefix,
    key.active ? 'yes' : 'revoked',
  ]);
}

export async function keysCreate(
  name: string,
  options: OrgOptions & { scope: Array<ApiKey['scopes'][number]>; orgOwned?: boolean },
): Promise<void> {
  const { client } = await connect();
  const org = await resolveOrg(client, options.org);
  const key = await unwrap(
    client.POST('/api/orgs/{orgId}/api-keys', {
      params: { path: { orgId: org.id } },
      body: { name, ownerType: options.orgOwned ? 'org' : 'user', scopes: options.scope },
    }),
  );
  printOne(
    options,
    key,
    () =>
      `Created API key ${key.name} (${key.id}) with scopes ${key.scopes.join(', ')}.\n` +
      `Its token, shown only this once:\n${key.token}`,
  );
}

export async function keysRevoke(ref: string, options: OrgOptions): Promise<void> {
  const { client } = await connect();
  const org = await resolveOrg(client, options.org);
  const keys = await unwrap(
    client.GET('/api/orgs/{orgId}/api-keys', { params: { path: { orgId: org.id } } }),
  );
  const matching = keys.filter((key) => key.id === ref || (key.name === ref && key.active));
  const [key] = matching;
  if (key === undefined)
    throw new CliError(`No API key "${ref}" (by id, or an active one by name)`);
  if (matching.length > 1) throw usageError(`Several active keys are named "${ref}": give the id`);
  await unwrap(
    client.DELETE('/api/orgs/{orgId}/api-keys/{keyId}', {
      params: { path: { orgId: org.id, keyId: key.id } },
    }),
  );
  if (options.json) return printJson({ id: key.id, revoked: true });
  process.stdout.write(`Revoked API key ${key.name} (${key.id})\n`);
}
