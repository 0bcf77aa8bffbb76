import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import { requirePrincipal } from '../../http/auth.js';
import type { ErrorCode } from '../../http/error-codes.js';
import { toAnswer } from '../../http/error-handler.js';
import { unauthorized } from '../../http/errors.js';
import { isJsonBodyError } from '../../http/json-body.js';
import { routesOf } from '../../http/route.js';
import { ErrorRef } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { Dispatcher } from './dispatch.js';
import { failure, type Tool, type ToolContext } from './tool.js';
import { TOOLS } from './tools/index.js';

export const MCP_PATH = '/mcp';

const TAGS = ['Agent tool server'];

const DESCRIPTION =
  'The Model Context Protocol over stateless Streamable HTTP: no session header, no server-initiated ' +
  'stream, plain JSON answers. Send `Accept: application/json, text/event-stream`. Call `tools/list` for ' +
  'the tools (search, projects, workers, commands, nodes, deployments); every tool call is re-dispatched ' +
  'through this API with the same bearer token, so the same scope and organization checks apply, and ' +
  "their failures are tool results with `isError: true`. The body is read by the API's own JSON parser: " +
  'one that is not JSON, is empty, nests deeper than 64 levels or holds a NUL character is a 400 JSON-RPC parse ' +
  'error (-32700) whose `data.code` is the API code (`invalid_json`, `json_too_deep`, `nul_character`); ' +
  "a body over the body limit is the API's 413 `payload_too_large`. The session cookie is not accepted here: send the Authorization header.";

const JsonRpcErrorBody = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    error: Type.Object({
      code: Type.Integer(),
      message: Type.String(),
      data: Type.Optional(
        Type.Object(
          { code: Type.String({ description: 'The API error code, when the body was refused.' }) },
          { description: 'Why the body could not be read, in the API error catalog.' },
        ),
      ),
    }),
    id: Type.Null(),
  },
  { title: 'JsonRpcError' },
);

const INSTRUCTIONS =
  'Sparrow development platform: projects, workers (workspace containers), nodes and deployments. ' +
  'Start with search or list_projects; run_command runs a command in a worker (background: true for long ones, ' +
  'then get_command). orgId is optional when you work in one organization.';

/** A JSON-RPC error answer (no request id: it was not read). */
function jsonRpcError(code: number, message: string, data?: { code: ErrorCode }) {
  return {
    jsonrpc: '2.0',
    error: data === undefined ? { code, message } : { code, message, data },
    id: null,
  };
}

const BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((tool) => [tool.name, tool]));

/**
 * A server with every tool, acting for one request's caller (stateless: one
 * per request). The SDK's low-level server: the tools' schemas are TypeBox
 * schemas, listed as the JSON Schema they are, and their arguments are
 * checked by the API's own validator (`tool.ts`). A failure of any kind is a
 * tool result with `isError: true`, as the SDK's high-level server answers.
 */
export function buildToolServer(ctx: ToolContext): Server {
  const server = new Server(
    { name: 'sparrow', version: '0.1.0' },
    { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((tool) => tool.listing),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const tool = BY_NAME.get(name);
    if (tool === undefined) return failure(`Tool ${name} not found`);
    try {
      return await tool.call(ctx, args);
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  });
  return server;
}

/** Headers set on the reply so far (the request id), for an answer written to the raw response. */
function copyHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
}

/** A JSON-RPC error body, written as it is (not through the API's Error schema). */
function sendJsonRpcError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  data?: { code: ErrorCode },
) {
  copyHeaders(reply);
  reply.hijack();
  reply.raw.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  reply.raw.end(JSON.stringify(jsonRpcError(code, message, data)));
  return reply;
}

function methodNotAllowed(reply: FastifyReply) {
  reply.header('allow', 'POST');
  return sendJsonRpcError(
    reply,
    405,
    -32000,
    'Method not allowed: this tool server is stateless; send JSON-RPC requests with POST',
  );
}

/**
 * `POST /mcp`: MCP over stateless Streamable HTTP with plain JSON answers.
 * The caller is authenticated like any API request (401 before any tool
 * runs); each tool call is then re-dispatched through the REST API with the
 * caller's own Authorization header. Described in the OpenAPI description
 * as one JSON-RPC route; the tools describe themselves (tools/list).
 */
export function mcpRoutes(router: Router, ctx: AppContext): void {
  router.register(async (scope) => {
    // The body goes through the API's one JSON parser (its depth limit, NUL
    // refusal and body limit); what it refuses is answered as a JSON-RPC parse
    // error, with the API's code in `data`. Other errors take the API's way.
    scope.setErrorHandler((error, _request, reply) => {
      if (!isJsonBodyError(error)) throw error;
      const { body } = toAnswer(error);
      return sendJsonRpcError(reply, 400, -32700, `Parse error: ${body.error.message}`, {
        code: body.error.code,
      });
    });
    const route = routesOf(scope, TAGS);
    route({
      method: 'POST',
      url: MCP_PATH,
      access: 'authenticated',
      // Any credential of the platform API: each tool's REST call checks its own scope.
      rule: 'any',
      notes: [
        '**API keys:** any key; each tool needs the scope of the REST route it calls, and a missing one is a tool error naming it.',
      ],
      operationId: 'callToolServer',
      summary: 'Agent tool server (MCP, JSON-RPC)',
      description: DESCRIPTION,
      body: Type.Unknown({
        description: 'A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them).',
      }),
      response: Type.Unknown({ description: 'The JSON-RPC response, as plain JSON.' }),
      otherResponses: {
        202: Type.Null({ description: 'A notification or response was accepted; no body.' }),
        // A JSON-RPC parse error, or the API's validation error for a query parameter.
        400: Type.Union([JsonRpcErrorBody, ErrorRef]),
        406: JsonRpcErrorBody,
      },
      errors: ['unauthenticated', 'malformed_authorization', 'invalid_token', 'key_not_allowed'],
      handler: async (request, reply) => {
        const authorization = request.headers.authorization;
        if (authorization === undefined) {
          throw unauthorized(
            'unauthenticated',
            'The tool server needs an Authorization: Bearer <token> header',
          );
        }
        const principal = requirePrincipal(request);
        const message: unknown = request.body;
        if (message === undefined) {
          return sendJsonRpcError(reply, 400, -32700, 'Parse error: the body is empty', {
            code: 'invalid_json',
          });
        }
        const dispatcher = new Dispatcher(scope, ctx.routes, authorization, principal, request.id);
        const server = buildToolServer({ dispatcher, db: ctx.db });
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        copyHeaders(reply);
        reply.hijack();
        reply.raw.on('close', () => {
          void transport.close();
          void server.close();
        });
        try {
          await server.connect(transport);
          await transport.handleRequest(request.raw, reply.raw, message);
        } catch (error) {
          request.log.error({ err: error }, 'tool server request failed');
          if (!reply.raw.headersSent) {
            reply.raw.writeHead(500, { 'content-type': 'application/json' });
            reply.raw.end(JSON.stringify(jsonRpcError(-32603, 'Internal error')));
          }
        }
        return reply;
      },
    });
    for (const method of ['GET', 'DELETE'] as const) {
      // Declared directly: its only answer is a JSON-RPC error, not the Error schema.
      scope.route({
        method,
        url: MCP_PATH,
        config: { access: 'public', declared: true },
        schema: {
          tags: TAGS,
          operationId: method === 'GET' ? 'streamToolServer' : 'endToolServerSession',
          summary: 'Not served: the tool server is stateless',
          description:
            'No server-initiated stream and no session to end: 405, `Allow: POST`, with a JSON-RPC error.',
          response: { 405: JsonRpcErrorBody },
        },
        handler: async (_request, reply) => methodNotAllowed(reply),
      });
    }
  });
}
