import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** The MCP SDK's own client, connected to `/mcp` of a listening server with this bearer token. */
export async function connectToolClient(baseUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'sparrow-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its result, typed (tools/call answers a CallToolResult). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  timeoutMs = 120_000,
): Promise<CallToolResult> {
  const result = await client.callTool({ name, arguments: args }, CallToolResultSchema, {
    timeout: timeoutMs,
  });
  // A legacy `toolResult` answer is never sent by this server: parse narrows to the current shape.
  return CallToolResultSchema.parse(result);
}

/** The structured content of a successful tool result. */
export async function callOk(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  timeoutMs = 120_000,
): Promise<Record<string, unknown>> {
  const result = await callTool(client, name, args, timeoutMs);
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const content = result.structuredContent;
  if (content === undefined) throw new Error(`${name} answered no structured content`);
  return content;
}

/** The text of a tool error result (it must be one). */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = await callTool(client, name, args);
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

/** A raw JSON-RPC POST to `/mcp`, for what the SDK client would not send. */
export function postRaw(
  baseUrl: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
}
