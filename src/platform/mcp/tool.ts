import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { Database } from '../../db/schema.js';
import { type Dispatcher, ToolFailure } from './dispatch.js';

/** What a tool call runs with: the caller's REST dispatcher and the database (for id lookups). */
export interface ToolContext {
  dispatcher: Dispatcher;
  db: Database;
}

/** A tool, its schemas built once; `register` adds it to one request's server. */
export interface Tool {
  readonly name: string;
  register(server: McpServer, ctx: ToolContext): void;
}

export interface ToolSpec<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint'>;
  run(ctx: ToolContext, args: z.output<z.ZodObject<I>>): Promise<z.output<z.ZodObject<O>>>;
  /** The text content, when the JSON of the result is not the most useful text (logs). */
  text?(result: z.output<z.ZodObject<O>>): string;
}

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Declares a tool: its input and output schemas, annotations, and what it does. */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  spec: ToolSpec<I, O>,
): Tool {
  const inputSchema = z.object(spec.input).strict();
  // Loose: the REST records carry more fields than the schema names, and they pass through.
  const outputSchema = z.looseObject(spec.output);
  return {
    name: spec.name,
    register(server, ctx) {
      server.registerTool<typeof outputSchema, typeof inputSchema>(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema,
          outputSchema,
          annotations: { title: spec.title, openWorldHint: false, ...spec.annotations },
        },
        async (args): Promise<CallToolResult> => {
          try {
            const result = await spec.run(ctx, args);
            const text = spec.text?.(result) ?? JSON.stringify(result);
            return { content: [{ type: 'text', text }], structuredContent: result };
          } catch (error) {
            if (error instanceof ToolFailure) return failure(error.message);
            throw error;
          }
        },
      );
    },
  };
}

const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A UUID, with a shorter pattern than zod's own (tools/list stays small). */
export function Uuid() {
  return z.string().regex(UUID_SHAPE, 'must be a UUID');
}

/** Common input fields, described once. */
export const Ids = {
  orgId: Uuid()
    .optional()
    .describe("Default: the API key's organization, or your only one (list_organizations).")
    .meta({ examples: ['0192f0c4-3a1b-7c2d-8e9f-0a1b2c3d4e5f'] }),
  projectId: Uuid()
    .describe('The project (list_projects or search show ids).')
    .meta({ examples: ['0192f0c4-5d6e-7f80-9a1b-2c3d4e5f6a7b'] }),
  workerId: Uuid()
    .describe('The worker (list_workers or search show ids); its project is looked up.')
    .meta({ examples: ['0192f0c5-1a2b-7c3d-8e4f-5a6b7c8d9e0f'] }),
  deploymentId: Uuid()
    .describe('The deployment (list_deployments or search show ids).')
    .meta({ examples: ['0192f0c6-2b3c-7d4e-8f5a-6b7c8d9e0f1a'] }),
  serviceId: Uuid()
    .describe('The service (get_deployment or search show ids).')
    .meta({ examples: ['0192f0c6-3c4d-7e5f-8a6b-7c8d9e0f1a2b'] }),
  tail: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe('Only the last N lines (default 200).')
    .meta({ examples: [100] }),
};

/** A worker: its id, its project and organization optional (looked up from the worker). */
export const WorkerRef = {
  orgId: Ids.orgId,
  projectId: Ids.projectId.optional().describe('Optional: looked up from the worker.'),
  workerId: Ids.workerId,
};

/** A record with an id and a name; the REST API's other fields pass through. */
export const NamedRecord = z.looseObject({ id: z.string(), name: z.string() });
