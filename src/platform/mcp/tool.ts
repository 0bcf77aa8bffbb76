import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import Type, { type Static, type TObject, type TSchema } from 'typebox';
import type { Database } from '../../db/schema.js';
import { Uuid } from '../../http/schemas.js';
import { type Dispatcher, ToolFailure } from './dispatch.js';
import { conforms, problemsOf } from './values.js';

/** What a tool call runs with: the caller's REST dispatcher and the database (for id lookups). */
export interface ToolContext {
  dispatcher: Dispatcher;
  db: Database;
}

type Hints = Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint'>;

/** A JSON Schema object as tools/list sends it. */
export interface JsonObjectSchema {
  type: 'object';
  [keyword: string]: unknown;
}

/** A tool as tools/list shows it: its schemas are plain JSON Schema, self-contained. */
export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObjectSchema;
  outputSchema: JsonObjectSchema;
  annotations: ToolAnnotations;
}

/** A tool: what tools/list shows, the REST operations it calls, and how it runs. */
export interface Tool {
  readonly name: string;
  readonly listing: ToolListing;
  /** The operationIds of the platform routes it calls. */
  readonly operations: readonly string[];
  call(ctx: ToolContext, args: unknown): Promise<CallToolResult>;
}

export interface ToolSpec<I extends TObject, O extends TObject> {
  name: string;
  title: string;
  description: string;
  /** Its arguments: the route's own schemas (or parts of them) and the ids that find the record. */
  input: I;
  /** Its structured result: the records as the routes describe them. */
  output: O;
  /** The operationIds of the platform routes it calls (checked against the app's routes). */
  operations: readonly string[];
  annotations: Hints;
  run(ctx: ToolContext, args: Static<I>): Promise<Static<O>>;
  /** The text content, when the JSON of the result is not the most useful text (logs). */
  text?(result: Static<O>): string;
}

/**
 * The schema as tools/list sends it: a UUID is `format: "uuid"` without the
 * API's long pattern, which would otherwise be most of the list (the
 * arguments are still checked against the whole schema).
 */
function listed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(listed);
  return value !== null && typeof value === 'object' ? listedNode(value) : value;
}

function listedNode(schema: object): Record<string, unknown> {
  const isUuid = 'format' in schema && schema.format === 'uuid';
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (isUuid && (key === 'pattern' || key === 'title')) continue;
    // Examples and defaults are values, not schemas.
    copy[key] = key === 'examples' || key === 'default' ? value : listed(value);
  }
  return copy;
}

function listedObject(schema: TObject): JsonObjectSchema {
  return { ...listedNode(schema), type: 'object' };
}

/** A tool result that reports a failure the agent can read. */
export function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Declares a tool: its input and output schemas, the operations it calls, and what it does. */
export function defineTool<I extends TObject, O extends TObject>(spec: ToolSpec<I, O>): Tool {
  const { name, title, description, input, output } = spec;
  return {
    name,
    operations: spec.operations,
    listing: {
      name,
      title,
      description,
      inputSchema: listedObject(input),
      outputSchema: listedObject(output),
      annotations: { title, openWorldHint: false, ...spec.annotations },
    },
    async call(ctx, args) {
      // Defaults are filled in as the arguments are checked.
      const given = args ?? {};
      if (!conforms(input, given)) {
        const problems = problemsOf(input, given);
        return failure(`Input validation error: Invalid arguments for tool ${name}: ${problems}`);
      }
      try {
        const scoped = { ...ctx, dispatcher: ctx.dispatcher.limitedTo(spec.operations) };
        const result = await spec.run(scoped, given);
        const wrong = problemsOf(output, result);
        if (wrong !== undefined) {
          return failure(
            `Output validation error: Invalid structured content for tool ${name}: ${wrong}`,
          );
        }
        const text = spec.text?.(result) ?? JSON.stringify(result);
        return { content: [{ type: 'text', text }], structuredContent: result };
      } catch (error) {
        if (error instanceof ToolFailure) return failure(error.message);
        throw error;
      }
    },
  };
}

/** `schema` with other annotations (a description, examples): the same shape, described for tools. */
export function annotated<S extends TSchema>(
  schema: S,
  options: { description?: string; examples?: readonly unknown[]; default?: unknown },
): S {
  return { ...schema, ...options };
}

/** Common input fields, described once. */
export const Ids = {
  orgId: Type.Optional(
    annotated(Uuid, {
      description: "Default: the API key's organization, or your only one (list_organizations).",
      examples: ['0192f0c4-3a1b-7c2d-8e9f-0a1b2c3d4e5f'],
    }),
  ),
  projectId: annotated(Uuid, {
    description: 'The project (list_projects or search show ids).',
    examples: ['0192f0c4-5d6e-7f80-9a1b-2c3d4e5f6a7b'],
  }),
  workerId: annotated(Uuid, {
    description: 'The worker (list_workers or search show ids); its project is looked up.',
    examples: ['0192f0c5-1a2b-7c3d-8e4f-5a6b7c8d9e0f'],
  }),
  deploymentId: annotated(Uuid, {
    description: 'The deployment (list_deployments or search show ids).',
    examples: ['0192f0c6-2b3c-7d4e-8f5a-6b7c8d9e0f1a'],
  }),
  serviceId: annotated(Uuid, {
    description: 'The service (get_deployment or search show ids).',
    examples: ['0192f0c6-3c4d-7e5f-8a6b-7c8d9e0f1a2b'],
  }),
  tail: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100_000,
      description: 'Only the last N lines (default 200).',
      examples: [100],
    }),
  ),
};

/** A worker: its id, its project and organization optional (looked up from the worker). */
export const WorkerRef = {
  orgId: Ids.orgId,
  projectId: Type.Optional(
    annotated(Ids.projectId, { description: 'Optional: looked up from the worker.' }),
  ),
  workerId: Ids.workerId,
};

/** The arguments of a tool: these properties and no others. */
export function Args<T extends Record<string, TSchema>>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

/** The structured result of a tool. */
export function Result<T extends Record<string, TSchema>>(properties: T) {
  return Type.Object(properties);
}
