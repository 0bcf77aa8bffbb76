import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import * as jobRuns from '../../../test/fixtures/job-runs.js';
import { createUser, type TestUser } from '../../../test/helpers/factories.js';
import { callError, callOk, connectToolClient, postRaw } from '../../../test/helpers/mcp.js';
import { servedDescription } from '../../../test/helpers/openapi.js';
import { addMember, createKey, createOrg, type TestOrg } from '../../../test/helpers/platform.js';
import { RunOutput } from '../job-runs/output.js';

const SPEC_TOOLS = [
  'search',
  'list_organizations',
  'list_projects',
  'get_project',
  'list_workers',
  'get_worker',
  'create_worker',
  'start_worker',
  'stop_worker',
  'delete_worker',
  'run_command',
  'get_command',
  'list_commands',
  'cancel_command',
  'get_worker_logs',
  'get_worker_git_status',
  'list_worker_ports',
  'list_worker_terminals',
  'list_nodes',
  'list_deployments',
];
const DEPLOYMENT_TOOLS = [
  'get_deployment',
  'deploy_service',
  'get_service_logs',
  'list_job_runs',
  'get_job_run_logs',
];
const UNKNOWN_ID = '0192f0c4-3a1b-7c2d-8e9f-0a1b2c3d4e5f';

const bed = useNodeBed();
let other: TestOrg;
let outsider: TestUser;
let projectId: string;
let deploymentId: string;
let serviceId: string;
const clients: Client[] = [];

async function client(token: string): Promise<Client> {
  const connected = await connectToolClient(bed.baseUrl, token);
  clients.push(connected);
  return connected;
}

beforeAll(async () => {
  outsider = await createUser(bed.t);
  other = await createOrg(bed.t, outsider, 'Elsewhere');
  const as = { token: bed.owner.token };
  const project = await bed.t.api.post(`/orgs/${bed.org.id}/projects`, { name: 'storefront' }, as);
  expect(project.status).toBe(201);
  projectId = project.body.id;
  const deployment = await bed.t.api.post(`/orgs/${bed.org.id}/deployments`, { name: 'shop' }, as);
  expect(deployment.status).toBe(201);
  deploymentId = deployment.body.id;
  const service = await bed.t.api.post(
    `/orgs/${bed.org.id}/deployments/${deploymentId}/services`,
    { name: 'shop-api', source: { type: 'image', image: 'busybox:1.36' } },
    as,
  );
  expect(service.status).toBe(201);
  serviceId = service.body.id;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

describe('tools/list', () => {
  it('lists every tool with a description, annotations and valid input and output schemas', async () => {
    const tools = (await (await client(bed.owner.token)).listTools()).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [...SPEC_TOOLS, ...DEPLOYMENT_TOOLS].sort(),
    );
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    for (const tool of tools) {
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
      expect(tool.annotations, tool.name).toMatchObject({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
      });
      expect(tool.inputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(() => ajv.compile(tool.outputSchema ?? {}), tool.name).not.toThrow();
      // orgId is optional everywhere.
      expect(tool.inputSchema.required ?? [], tool.name).not.toContain('orgId');
    }
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly).toEqual(expect.arrayContaining(['search', 'list_projects', 'get_command']));
    const destructive = tools.filter((tool) => tool.annotations?.destructiveHint);
    expect(destructive.map((tool) => tool.name)).toContain('delete_worker');
    // Small enough for an agent's context.
    expect(JSON.stringify(tools).length).toBeLessThan(55_000);
  });
});

describe('HTTP', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    },
  });

  it('refuses a missing, unknown or cookie-only credential with 401 before any tool runs', async () => {
    const missing = await postRaw(bed.baseUrl, initialize);
    expect(missing.status).toBe(401);
    const unknown = await postRaw(bed.baseUrl, initialize, {
      authorization: 'Bearer spk_notakeyatall0000',
    });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: { code: 'invalid_token' } });
    const cookie = await postRaw(bed.baseUrl, initialize, {
      cookie: `session=${bed.owner.token}`,
    });
    expect(cookie.status).toBe(401);
  });

  it('answers GET and DELETE with 405 and a JSON-RPC error', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${bed.baseUrl}/mcp`, {
        method,
        headers: { authorization: `Bearer ${bed.owner.token}` },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      const body = await response.json();
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) }, id: null });
    }
  });

  it('answers a malformed body with a JSON-RPC parse error, and a non-JSON-RPC one with 400', async () => {
    const auth = { authorization: `Bearer ${bed.owner.token}` };
    const malformed = await postRaw(bed.baseUrl, '{"jsonrpc": "2.0", "id": 1, "method":', auth);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const empty = await postRaw(bed.baseUrl, '', auth);
    expect(empty.status).toBe(400);
    const notRpc = await postRaw(bed.baseUrl, '{"hello": "world"}', auth);
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toMatchObject({ jsonrpc: '2.0', error: expect.any(Object) });
  });

  it('accepts a notification with 202, and answers an unknown tool as a tool error', async () => {
    const auth = { authorization: `Bearer ${bed.owner.token}` };
    const notification = await postRaw(
      bed.baseUrl,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      auth,
    );
    expect(notification.status).toBe(202);
    const unknown = await postRaw(
      bed.baseUrl,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'format_disk', arguments: {} },
      }),
      auth,
    );
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ id: 7, result: { isError: true } });
  });

  it('is described at the root only, POST with the JSON-RPC errors, GET and DELETE as 405', async () => {
    const document = await servedDescription(bed.t.http);
    const item = document.paths['/mcp'];
    expect(item?.servers).toBeUndefined();
    expect(item?.post?.operationId).toBe('callToolServer');
    expect(Object.keys(item?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '406']),
    );
    expect(Object.keys(item?.get?.responses ?? {})).toContain('405');
    expect(Object.keys(item?.delete?.responses ?? {})).toContain('405');
    expect(document.paths['/api/mcp']).toBeUndefined();
  });

  it('answers plain JSON, with no session header, to both Accept orders', async () => {
    for (const accept of [
      'application/json, text/event-stream',
      'text/event-stream, application/json',
    ]) {
      const response = await postRaw(bed.baseUrl, initialize, {
        authorization: `Bearer ${bed.owner.token}`,
        accept,
      });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { serverInfo: { name: 'sparrow' }, capabilities: { tools: {} } },
      });
    }
    // A client that cannot take both is told so (the SDK's rule for Streamable HTTP).
    const jsonOnly = await postRaw(bed.baseUrl, initialize, {
      authorization: `Bearer ${bed.owner.token}`,
      accept: 'application/json',
    });
    expect(jsonOnly.status).toBe(406);
  });
});

describe('organizations', () => {
  it('uses a key’s own organization, and a session’s only one, when orgId is left out', async () => {
    const key = await createKey(bed.t, bed.org, bed.owner, ['projects:read']);
    const byKey = await callOk(await client(key.token), 'list_projects');
    expect(byKey.projects).toEqual([expect.objectContaining({ id: projectId })]);
    const bySession = await callOk(await client(bed.owner.token), 'list_projects');
    expect(bySession.projects).toEqual([expect.objectContaining({ id: projectId })]);
    const orgs = await callOk(await client(key.token), 'list_organizations');
    expect(orgs.organizations).toEqual([expect.objectContaining({ id: bed.org.id })]);
  });

  it('asks a session in several organizations to choose, naming them', async () => {
    const member = await addMember(bed.t, bed.org, bed.owner, 'member');
    const second = await createOrg(bed.t, member, 'Second Co');
    const tools = await client(member.token);
    const message = await callError(tools, 'list_projects');
    expect(message).toContain('orgId');
    expect(message).toContain(bed.org.id);
    expect(message).toContain(second.id);
    expect(message).toContain('Second Co');
    const chosen = await callOk(tools, 'list_projects', { orgId: bed.org.id });
    expect(chosen.projects).toEqual([expect.objectContaining({ id: projectId })]);
  });

  it('never lets a key read another organization, even with orgId given', async () => {
    const key = await createKey(bed.t, bed.org, bed.owner, ['*'], 'org');
    const tools = await client(key.token);
    const message = await callError(tools, 'list_projects', { orgId: other.id });
    expect(message).toMatch(/not found/i);
    expect(message).not.toContain('Elsewhere');
    const outsiderTools = await client(outsider.token);
    const refused = await callError(outsiderTools, 'get_project', { orgId: bed.org.id, projectId });
    expect(refused).toMatch(/not found/i);
    // A worker id of another organization looks like none.
    const worker = await callError(tools, 'get_worker', { workerId: UNKNOWN_ID });
    expect(worker).toMatch(/not_found/);
  });
});

describe('scopes and revocation', () => {
  it('answers a missing scope as a tool error that names it', async () => {
    const key = await createKey(bed.t, bed.org, bed.owner, ['workers:read', 'projects:read']);
    const tools = await client(key.token);
    // run_command without workers:exec: on a real worker in mcp-engine.test.ts.
    const nodes = await callError(tools, 'list_nodes');
    expect(nodes).toContain('nodes:read');
  });

  it('searches only the kinds the key may read, and says which it skipped', async () => {
    const key = await createKey(bed.t, bed.org, bed.owner, ['projects:read', 'workers:read']);
    const found = await callOk(await client(key.token), 'search', { query: 'STORE' });
    expect(found.results).toEqual([
      expect.objectContaining({ kind: 'project', id: projectId, name: 'storefront' }),
    ]);
    expect(found.skipped).toEqual(['deployment', 'service', 'node']);
    const all = await callOk(await client(bed.owner.token), 'search', { query: 'shop' });
    expect(all.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'deployment', id: deploymentId }),
        expect.objectContaining({ kind: 'service', id: serviceId, deploymentId }),
      ]),
    );
    expect(all.skipped).toEqual([]);
  });

  it('stops a revoked key at its next call, with 401', async () => {
    const key = await createKey(bed.t, bed.org, bed.owner, ['projects:read']);
    const tools = await client(key.token);
    await callOk(tools, 'list_projects');
    const revoked = await bed.t.api.delete(`/orgs/${bed.org.id}/api-keys/${key.id}`, {
      token: bed.owner.token,
    });
    expect(revoked.status).toBe(204);
    await expect(callOk(tools, 'list_projects')).rejects.toMatchObject({ code: 401 });
  });

  it('answers invalid arguments as a tool error', async () => {
    const message = await callError(await client(bed.owner.token), 'get_project', {
      projectId: 'not-a-uuid',
    });
    expect(message).toMatch(/projectId/);
  });
});

describe('deployment tools', () => {
  it('lists and reads deployments with their services', async () => {
    const tools = await client(bed.owner.token);
    const listed = await callOk(tools, 'list_deployments', { query: 'sho' });
    expect(listed.deployments).toEqual([expect.objectContaining({ id: deploymentId })]);
    const read = await callOk(tools, 'get_deployment', { deploymentId });
    expect(read.deployment).toMatchObject({ id: deploymentId, name: 'shop' });
    expect(read.services).toEqual([expect.objectContaining({ id: serviceId, name: 'shop-api' })]);
  });

  it('read service logs, job runs and their output', async () => {
    const runId = await jobRuns.insertRun(bed, { deploymentId, serviceId }, 'failed', {
      reason: 'the health check never passed',
      exit_code: 1,
      created_at: new Date(),
      ended_at: new Date(),
    });
    const output = new RunOutput(bed.t.db, runId);
    output.write('pulling\nstarting\nunhealthy\n');
    await output.flush();
    const tools = await client(bed.owner.token);
    // No replica runs: an empty text.
    expect(await callOk(tools, 'get_service_logs', { serviceId, tail: 10 })).toEqual({ logs: '' });
    const byService = await callOk(tools, 'list_job_runs', { serviceId });
    expect(byService).toEqual({
      jobRuns: [
        expect.objectContaining({ id: runId, kind: 'deploy', status: 'failed', exitCode: 1 }),
      ],
      nextBefore: null,
    });
    const byDeployment = await callOk(tools, 'list_job_runs', { deploymentId, limit: 5 });
    expect(byDeployment.jobRuns).toEqual([expect.objectContaining({ id: runId })]);
    const logs = await callOk(tools, 'get_job_run_logs', { runId });
    expect(logs).toMatchObject({
      jobRun: { id: runId, reason: 'the health check never passed' },
      output: 'pulling\nstarting\nunhealthy\n',
    });
    const tail = await callOk(tools, 'get_job_run_logs', { runId, tail: 2 });
    expect(tail.output).toBe('starting\nunhealthy\n');
    expect(await callError(tools, 'list_job_runs', {})).toContain('serviceId or deploymentId');
  });

  it('queue a deploy, and answer as tool errors what this server does not have', async () => {
    const tools = await client(bed.owner.token);
    // A deploy is queued (POST without a body), whatever becomes of it on a machine without nodes.
    const deploy = await callOk(tools, 'deploy_service', { serviceId });
    expect(deploy.response).toMatchObject({ service: { id: serviceId, state: 'deploying' } });
    const run = await callError(tools, 'get_job_run_logs', { runId: UNKNOWN_ID });
    expect(run).toMatch(/not_found/);
    const unknownService = await callError(tools, 'get_service_logs', { serviceId: UNKNOWN_ID });
    expect(unknownService).toMatch(/^not_found: service/);
    const key = await createKey(bed.t, bed.org, bed.owner, ['projects:read']);
    const keyTools = await client(key.token);
    expect(await callError(keyTools, 'get_deployment', { deploymentId })).toContain(
      'deployments:read',
    );
    expect(await callError(keyTools, 'list_job_runs', { deploymentId })).toContain(
      'deployments:read',
    );
  });
});
