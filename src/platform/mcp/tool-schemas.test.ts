import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import { connectToolClient } from '../../../test/helpers/mcp.js';
import { servedDescription, withRefsInlined } from '../../../test/helpers/openapi.js';
import { ExecBody } from '../workers/inspect-schemas.js';
import { SpawnWorkerBody, Worker } from '../workers/schemas.js';
import { findOperation, ORG_LOOKUPS } from './operations.js';
import { TOOLS } from './tools/index.js';

const bed = useNodeBed();
let client: Client;

beforeAll(async () => {
  client = await connectToolClient(bed.baseUrl, bed.owner.token);
});
afterAll(async () => {
  await client?.close();
});

type Json = Record<string, unknown>;

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function propertiesOf(schema: unknown): Json {
  if (!isJson(schema) || !isJson(schema.properties)) throw new Error('not an object schema');
  return schema.properties;
}

/** A schema as tools/list shows it: a UUID without its pattern (`format` says it). */
function listedAs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) => {
    if (!isJson(value) || value.format !== 'uuid') return value;
    const { pattern: _pattern, title: _title, ...rest } = value;
    return rest;
  });
}

describe('tool schemas', () => {
  it('are the routes’ own: create_worker takes the spawn body, its result is the route’s Worker', async () => {
    const tools = (await client.listTools()).tools;
    const create = tools.find((tool) => tool.name === 'create_worker');
    const input = propertiesOf(create?.inputSchema);
    for (const [name, schema] of Object.entries(SpawnWorkerBody.properties)) {
      expect(input[name], name).toEqual(listedAs(schema));
    }
    // What the route declares in the API description, too (named schemas are components there).
    const document = withRefsInlined(await servedDescription(bed.t.http));
    const body = document.components.schemas.SpawnWorker;
    for (const [name, schema] of Object.entries(propertiesOf(body))) {
      expect(input[name], name).toEqual(listedAs(schema));
    }
    const worker = propertiesOf(propertiesOf(create?.outputSchema).worker);
    for (const name of ['id', 'state', 'stateReason', 'urls'] as const) {
      expect(worker[name], name).toEqual(listedAs(Worker.properties[name]));
    }
    const run = propertiesOf(tools.find((tool) => tool.name === 'run_command')?.inputSchema);
    for (const [name, schema] of Object.entries(ExecBody.properties)) {
      expect(run[name], name).toEqual(listedAs(schema));
    }
  });

  it('are self-contained: no reference a client would have to resolve', async () => {
    const tools = (await client.listTools()).tools;
    expect(JSON.stringify(tools)).not.toContain('$ref');
  });
});

describe('tool operations', () => {
  it('name operations the app serves', () => {
    for (const operation of ORG_LOOKUPS) {
      expect(() => findOperation(bed.t.routes, operation), operation).not.toThrow();
    }
    for (const tool of TOOLS) {
      expect(tool.operations.length, tool.name).toBeGreaterThan(0);
      for (const operation of tool.operations) {
        expect(
          () => findOperation(bed.t.routes, operation),
          `${tool.name}: ${operation}`,
        ).not.toThrow();
      }
    }
  });

  it('fail on an operationId no route serves, and find one under its /api path', () => {
    expect(() => findOperation(bed.t.routes, 'spawnWorkers')).toThrow(/spawnWorkers/);
    expect(findOperation(bed.t.routes, 'spawnWorker')).toEqual({
      method: 'POST',
      url: '/api/orgs/:orgId/projects/:projectId/workers',
    });
  });
});
