import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import { requirePrincipal } from '../../http/auth.js';
import { unauthorized } from '../../http/errors.js';
import { routesOf } from '../../http/route.js';
import type { AppContext, Router } from '../../module.js';
import { Dispatcher } from './dispatch.js';
import type { ToolContext } from './tool.js';
import { TOOLS } from './tools/index.js';

export const MCP_PATH = '/mcp';

const INSTRUCTIONS =
  'Sparrow development platform: projects, workers (workspace containers), nodes and deployments. ' +
  'Start with search or list_projects; run_command runs a command in a worker (background: true for long ones, ' +
  'then get_command). orgId is optional when you work in one organization.';

/** A JSON-RPC error answer (no request id: it was not read). */
function jsonRpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/** A server with every tool, acting for one request's caller (stateless: one per request). */
export function buildToolServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'sparrow', version: '0.1.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  for (const tool of TOOLS) tool.register(server, ctx);
  return server;
}

/** Headers set on the reply so far (the request id), for an answer written to the raw response. */
function copyHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
}

/** A JSON-RPC error body, written as it is (not through the API's Error schema). */
function sendJsonRpcError(reply: FastifyReply, status: number, code: number, message: string) {
  copyHeaders(reply);
  reply.hijack();
  reply.raw.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  reply.raw.end(JSON.stringify(jsonRpcError(code, message)));
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
 * caller's own Authorization header. Left out of the OpenAPI description:
 * MCP describes itself (tools/list).
 */
export function mcpRoutes(router: Router, ctx: AppContext): void {
  router.register(async (scope) => {
    // The body is parsed here, so that malformed JSON is a JSON-RPC parse error.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    const route = routesOf(scope, ['Agent tool server']);
    route({
      method: 'POST',
      url: MCP_PATH,
      access: 'authenticated',
      // Any credential of the platform API: each tool's REST call checks its own scope.
      rule: 'any',
      hidden: true,
      operationId: 'callToolServer',
      summary: 'MCP tool server (JSON-RPC)',
      response: Type.Unknown(),
      handler: async (request, reply) => {
        const authorization = request.headers.authorization;
        if (authorization === undefined) {
          throw unauthorized(
            'unauthenticated',
            'The tool server needs an Authorization: Bearer <token> header',
          );
        }
        const principal = requirePrincipal(request);
        const raw: unknown = request.body;
        let message: unknown;
        try {
          message = JSON.parse(typeof raw === 'string' ? raw : '');
        } catch {
          return sendJsonRpcError(reply, 400, -32700, 'Parse error: the body is not valid JSON');
        }
        const dispatcher = new Dispatcher(scope, authorization, principal, request.id);
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
      route({
        method,
        url: MCP_PATH,
        access: 'public',
        hidden: true,
        operationId: method === 'GET' ? 'streamToolServer' : 'endToolServerSession',
        summary: 'Not served: the tool server is stateless (405)',
        response: Type.Unknown(),
        handler: async (_request, reply) => methodNotAllowed(reply),
      });
    }
  });
}
