import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import Type, { type Static, type TNull, type TSchema } from 'typebox';
import type { Router } from '../module.js';
import type { Access, CredentialRule } from './auth.js';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';
import { ErrorRef, NoContent, Uuid } from './schemas.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The `:name` segments of a route pattern, as a union of names. */
export type ParamNames<U extends string> = U extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : U extends `${string}:${infer Name}`
    ? Name
    : never;

type Maybe<S> = S extends TSchema ? Static<S> : undefined;

/** The request a handler sees: params, query and body typed from the declared schemas. */
export type RouteRequest<U extends string, P, Q, B> = FastifyRequest<{
  Params: P extends TSchema ? Static<P> : { [K in ParamNames<U>]: string };
  Querystring: Q extends TSchema ? Static<Q> : Record<string, never>;
  Body: Maybe<B>;
}>;

/** What every route states, whatever its interface. */
export interface RouteShape<U extends string, P, Q, B, R extends TSchema> {
  method: Method;
  url: U;
  operationId: string;
  summary: string;
  description?: string;
  /** Path parameters; by default each `:name` of the URL is a UUID. */
  params?: P;
  querystring?: Q;
  body?: B;
  /** Left out of the API description (internal routes such as the agents' link). */
  hidden?: boolean;
  /** Media types of the body and of the answer, when not JSON. */
  consumes?: readonly string[];
  produces?: readonly string[];
  /** Request headers the route reads, documented and validated. */
  headers?: TSchema;
  /** The success body; `NoContent` answers 204. */
  response: R;
  /**
   * Other success answers: the handler picks one with `reply.code(...)` and
   * returns the body (sign-in answers 200 or 201). It must not send the
   * reply itself inside a transaction, which commits after it returns.
   */
  otherResponses?: Readonly<Record<number, TSchema>>;
  /** The success status: 200 unless said (204 for `NoContent`; 101 for a WebSocket). */
  status?: 101 | 200 | 201 | 202 | 204 | 302 | 303;
  /** The credentials the description lists, when a public route reads one itself (logout). */
  security?: ReadonlyArray<Record<string, string[]>>;
  /** Error codes this route may answer beyond the ones its kind implies. */
  errors?: readonly ErrorCode[];
  /** Other route options (a WebSocket handler, a body limit, a content parser...). */
  options?: Omit<Partial<RouteOptions>, 'method' | 'url' | 'schema' | 'handler' | 'config'>;
}

/** The answer of a handler: the success body (anything for 204), or the reply when it answered itself. */
export type Answer<R extends TSchema> = (R extends TNull ? unknown : Static<R>) | FastifyReply;

export interface BaseRoute<U extends string, P, Q, B, R extends TSchema>
  extends RouteShape<U, P, Q, B, R> {
  access: Access;
  /** What an API key or app token needs (see `CredentialRule`); none: refused to them. */
  rule?: CredentialRule;
  /** Lines appended to the description (who may call, what a key needs). */
  notes?: readonly string[];
  /** What guards the route beyond its credential rule (its role permission), for the route walks. */
  guard?: string;
  handler(request: RouteRequest<U, P, Q, B>, reply: FastifyReply): Promise<Answer<R>>;
}

function defaultParams(url: string): TSchema | undefined {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string);
  if (names.length === 0) return undefined;
  return Type.Object(Object.fromEntries(names.map((name) => [name, Uuid])), {
    additionalProperties: false,
  });
}

/** Error responses grouped by status, each listing its codes. */
function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const description = list.map((code) => `\`${code}\``).join(', ');
    responses[String(status)] = { ...ErrorRef, description };
  }
  return responses;
}

function describe(description: string | undefined, notes: readonly string[]): string | undefined {
  const parts = [description, ...notes].filter((part) => part !== undefined && part !== '');
  return parts.length === 0 ? undefined : parts.join('\n\n');
}

/**
 * Registers one route: its schemas, the access kind and credential rule the
 * auth hook reads, the error responses it documents, and the success status
 * it answers with.
 */
export function registerRoute<U extends string, P, Q, B, R extends TSchema>(
  router: Router,
  tags: readonly string[],
  route: BaseRoute<U, P, Q, B, R>,
): void {
  const status = route.status ?? ((route.response as TSchema) === NoContent ? 204 : 200);
  // A cookie request that changes state must come from the service's own origin (`auth.ts`).
  const errors: readonly ErrorCode[] =
    route.access !== 'public' && route.method !== 'GET'
      ? [...(route.errors ?? []), 'origin_not_allowed']
      : (route.errors ?? []);
  const params = (route.params as TSchema | undefined) ?? defaultParams(route.url);
  const other = route.otherResponses ?? {};
  const schema: Record<string, unknown> = {
    tags,
    operationId: route.operationId,
    summary: route.summary,
    response: {
      [status]: route.response,
      ...route.otherResponses,
      ...errorResponses(errors),
    },
  };
  const description = describe(route.description, route.notes ?? []);
  if (description !== undefined) schema.description = description;
  if (params !== undefined) schema.params = params;
  if (route.querystring !== undefined) schema.querystring = route.querystring;
  if (route.body !== undefined) schema.body = route.body;
  if (route.headers !== undefined) schema.headers = route.headers;
  if (route.hidden === true) schema.hide = true;
  if (route.consumes !== undefined) schema.consumes = route.consumes;
  if (route.produces !== undefined) schema.produces = route.produces;
  if (route.security !== undefined) schema.security = route.security;
  const handler = route.handler as (
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<unknown>;
  router.route({
    ...route.options,
    method: route.method,
    url: route.url,
    config: { access: route.access, rule: route.rule, declared: true, guard: route.guard },
    schema,
    handler: async (request, reply) => {
      const result = await handler(request, reply);
      // A reply is thenable: a handler that returns it resolves to undefined once it is
      // sent, or once its client went away mid-stream (answered, though not ended).
      if (result === reply || reply.sent || reply.raw.headersSent) return reply;
      const chosen = Object.hasOwn(other, reply.statusCode) ? reply.statusCode : status;
      return reply.code(chosen).send(chosen === 204 ? null : result);
    },
  } as RouteOptions);
}

/** A route of neither a workspace nor an organization: sign-in, app records, health. */
export type PlainRoute<U extends string, P, Q, B, R extends TSchema> = BaseRoute<U, P, Q, B, R>;

/** Declares the routes of one group (one tag of the description). */
export function routesOf(router: Router, tags: readonly string[]) {
  return <
    U extends string,
    P = undefined,
    Q = undefined,
    B = undefined,
    R extends TSchema = TSchema,
  >(
    route: PlainRoute<U, P, Q, B, R>,
  ): void => registerRoute(router, tags, route);
}

/** What one interface's credential rule stands for: the access kind, the rule, its note and codes. */
export interface RuleMeaning {
  access: Access;
  rule: CredentialRule | undefined;
  /** The line the description gets (who may call); empty for public routes. */
  note: string;
  errors: ErrorCode[];
}

/** A route declared with its rule of one interface (`Extra`: `{ app }` or `{ key }`). */
export type PlainSpec<U extends string, P, Q, B, R extends TSchema, Extra> = Omit<
  PlainRoute<U, P, Q, B, R>,
  'access' | 'rule' | 'notes'
> &
  Extra;

/**
 * Declares routes outside a workspace or an organization, for one interface:
 * `meaningOf` reads the rule from the declaration, `implied` are the codes
 * every authenticated route of the interface may answer.
 */
export function plainRoutes<Extra>(
  router: Router,
  tags: readonly string[],
  implied: readonly ErrorCode[],
  meaningOf: (extra: Extra) => RuleMeaning,
) {
  return <
    U extends string,
    P = undefined,
    Q = undefined,
    B = undefined,
    R extends TSchema = TSchema,
  >(
    spec: PlainSpec<U, P, Q, B, R, Extra>,
  ): void => {
    const { access, rule, note, errors } = meaningOf(spec);
    const codes: readonly ErrorCode[] =
      access === 'public' ? ['validation_failed'] : [...implied, ...errors];
    registerRoute(router, tags, {
      ...spec,
      access,
      rule,
      notes: note === '' ? [] : [note],
      errors: [...codes, ...(spec.errors ?? [])],
    });
  };
}
