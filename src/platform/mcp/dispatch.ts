import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { RouteRecord } from '../../app.js';
import type { Principal } from '../../http/principal.js';
import { fillPath, findOperation, ORG_LOOKUPS } from './operations.js';
import { conform } from './values.js';

/**
 * A tool failed in a way the agent can act on: answered as a tool result
 * with `isError: true`, never as a protocol error.
 */
export class ToolFailure extends Error {
  constructor(
    message: string,
    /** What the REST API answered, when the failure came from it. */
    readonly rest?: { status: number; code: string; details?: unknown },
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

export interface RestCall {
  /** The operationId of the platform route called. */
  operation: string;
  /** Its path parameters, by name. */
  params?: Readonly<Record<string, string>>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

interface RestErrorBody {
  error: { code: string; message: string; details?: unknown };
}

function isRestError(body: unknown): body is RestErrorBody {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const { error } = body;
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error &&
    typeof error.message === 'string'
  );
}

function missingScopeOf(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null || !('missingScope' in details)) {
    return undefined;
  }
  return typeof details.missingScope === 'string' ? details.missingScope : undefined;
}

/** The actionable message of a REST error answered to the tool `tool`. */
export function describeRestError(tool: string, status: number, body: unknown): ToolFailure {
  if (!isRestError(body)) {
    return new ToolFailure(`${tool} failed: the API answered ${status}`, { status, code: 'http' });
  }
  const { code, message, details } = body.error;
  const rest = { status, code, details };
  const scope = missingScopeOf(details);
  if (code === 'missing_scope' && scope !== undefined) {
    return new ToolFailure(
      `missing_scope: ${tool} needs the API key scope "${scope}", which this key lacks. ` +
        `Use a key created with "${scope}" (or "*"), or a signed-in session.`,
      rest,
    );
  }
  const hints: Record<string, string> = {
    key_not_allowed: 'This needs a signed-in session; API keys cannot do it.',
    session_required: 'This needs a signed-in session; API keys cannot do it.',
    insufficient_role: 'Ask an owner or admin of the organization.',
    route_not_found: 'This server does not serve that API route (it may be older than the tool).',
  };
  const notFoundHint = message.startsWith('Organization')
    ? 'Call list_organizations for the organizations you can see, or leave orgId out.'
    : 'Check the id: the list_* and search tools show what you can see.';
  const hint = hints[code] ?? (status === 404 ? notFoundHint : '');
  return new ToolFailure(`${code}: ${message}${hint === '' ? '' : `. ${hint}`}`, rest);
}

function queryString(query: RestCall['query']): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Re-dispatches tool calls through the REST API in process, with the
 * caller's own Authorization header: the same authentication, scope and
 * organization checks as any API request, in one place.
 */
export class Dispatcher {
  constructor(
    private readonly app: FastifyInstance,
    private readonly routes: readonly RouteRecord[],
    private readonly authorization: string,
    readonly principal: Principal,
    private readonly requestId: string,
    /** The operations a tool may call: those it declares and the organization lookups. */
    private readonly allowed?: ReadonlySet<string>,
  ) {}

  /** This dispatcher for one tool, which may call only the operations it declares. */
  limitedTo(operations: readonly string[]): Dispatcher {
    const allowed = new Set([...ORG_LOOKUPS, ...operations]);
    return new Dispatcher(
      this.app,
      this.routes,
      this.authorization,
      this.principal,
      this.requestId,
      allowed,
    );
  }

  /** The answer's body (JSON parsed, text as a string) and status, or a ToolFailure. */
  async call(tool: string, call: RestCall): Promise<{ status: number; body: unknown }> {
    if (this.allowed !== undefined && !this.allowed.has(call.operation)) {
      throw new Error(`${tool} calls ${call.operation}, which it does not declare`);
    }
    const { method, url } = findOperation(this.routes, call.operation);
    const response = await this.app.inject({
      method,
      url: `${fillPath(url, call.params ?? {})}${queryString(call.query)}`,
      headers: {
        authorization: this.authorization,
        'x-request-id': this.requestId,
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
    });
    const type = String(response.headers['content-type'] ?? '');
    const body: unknown =
      type.startsWith('application/json') && response.body !== '' ? response.json() : response.body;
    if (response.statusCode >= 400) throw describeRestError(tool, response.statusCode, body);
    return { status: response.statusCode, body };
  }

  /** The body of a successful answer. */
  async read(tool: string, call: RestCall): Promise<unknown> {
    return (await this.call(tool, call)).body;
  }

  /** The body of a successful answer, checked against the schema the route answers with. */
  async readAs<S extends TSchema>(tool: string, call: RestCall, schema: S) {
    return conform(tool, schema, await this.read(tool, call));
  }
}
