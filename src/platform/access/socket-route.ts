import type { FastifyRequest } from 'fastify';
import Type, { type TSchema } from 'typebox';
import type WebSocket from 'ws';
import type { Database } from '../../db/schema.js';
import { requirePrincipal } from '../../http/auth.js';
import type { ErrorCode } from '../../http/error-codes.js';
import { AppError, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { type RouteRequest, type RouteShape, registerRoute } from '../../http/route.js';
import { upgradeRequired } from '../../http/websocket.js';
import type { AppContext, Router } from '../../module.js';
import { tooManyFollowers } from '../common/follower-quota.js';
import { orgAccess } from '../orgs/service.js';
import type { OrgAccess } from './org-access.js';
import { keyAccess, permissionNote } from './org-route.js';
import { type OrgPermission, requireRole } from './roles.js';
import type { Scope } from './scopes.js';

const SOCKET = Type.Null({ description: 'Switching Protocols: the WebSocket is open.' });

/** The request a socket's guard and handler see: params and query typed from its schemas. */
export type SocketRequest<U extends string, P, Q> = RouteRequest<U, P, Q, undefined>;

/** What every socket route states: a GET answered 101, 426 without an upgrade. */
type SocketShape<U extends string, P, Q> = Omit<
  RouteShape<U, P, Q, undefined, typeof SOCKET>,
  'method' | 'response' | 'status' | 'body' | 'otherResponses' | 'options'
> & {
  /**
   * When the guard runs: `preHandler` (default), once the params and query
   * are validated; `preValidation` to refuse a caller before reading them.
   */
  stage?: 'preValidation' | 'preHandler';
};

/**
 * A socket a member of an organization opens on one of its resources, named
 * by its id alone (`/api/job-runs/:runId/logs`): the key's scopes and the
 * role's permission are declared like `orgRoutes`' and checked before the
 * upgrade, so a refusal is a plain HTTP answer.
 */
export interface MemberSocket<U extends string, P, Q, T extends { org_id: string }, R>
  extends SocketShape<U, P, Q> {
  key: readonly Scope[];
  permission: OrgPermission;
  /** The resource's name in its 404: an unknown one and another organization's answer alike. */
  resource: string;
  /** The resource the socket opens, found from the params; undefined: 404. */
  find(db: Database, request: SocketRequest<U, P, Q>): Promise<T | undefined>;
  /**
   * How the caller acts in the resource's organization, when not only as
   * its member or key (an SSH token of a worker); default: `orgAccess`, its
   * 404 answered as the resource's.
   */
  access?(db: Database, principal: Principal, target: T): Promise<OrgAccess>;
  /**
   * Holds one of the caller's follower places (`follower-quota.ts`): 429
   * `too_many_followers` before the upgrade when none is left.
   */
  followers?: boolean;
  /**
   * What the socket needs once authorized, found before the upgrade so that
   * a refusal (the resource's policy, a replica not running) is a plain HTTP
   * answer.
   */
  prepare(access: OrgAccess, target: T, request: SocketRequest<U, P, Q>): Promise<R>;
  connect(socket: WebSocket, prepared: R, request: SocketRequest<U, P, Q>): void;
}

/**
 * A socket opened by another party than a person or a key (a node's agent,
 * another server process), with the credential it checks named in
 * `credential`: it is public to the auth hook, and `authenticate` refuses
 * anyone without that credential before the upgrade.
 */
export interface CredentialSocket<U extends string, P, Q, C> extends SocketShape<U, P, Q> {
  /** The credential checked, as the route walks read it (`node token`). */
  credential: string;
  authenticate(request: SocketRequest<U, P, Q>): Promise<C>;
  connect(socket: WebSocket, authenticated: C, request: SocketRequest<U, P, Q>): void;
}

const IMPLIED: readonly ErrorCode[] = [
  'validation_failed',
  'unauthenticated',
  'invalid_token',
  'key_not_allowed',
  'not_found',
];

/** The access of a member to the resource's organization; its 404 is the resource's. */
async function memberAccess(
  db: Database,
  principal: Principal,
  orgId: string,
  resource: string,
): Promise<OrgAccess> {
  try {
    return await orgAccess(db, principal, orgId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw notFound(resource);
    throw error;
  }
}

/**
 * The WebSocket routes of one group: each declares its guard beside it (a
 * member's key scopes and role permission, or the credential of a party
 * that is not a member), which runs before the upgrade and hands what it
 * found to the handler, and is described in the API like any route.
 */
export function socketRoutes(router: Router, ctx: AppContext, tags: readonly string[]) {
  /** Registers the route; `guard` runs before the upgrade, its answer goes to `connect`. */
  function register<U extends string, P, Q, G>(
    spec: SocketShape<U, P, Q>,
    declared: {
      access: 'public' | 'authenticated';
      rule?: readonly Scope[];
      guard: string;
      notes: string[];
      errors: readonly ErrorCode[];
    },
    guard: (request: SocketRequest<U, P, Q>) => Promise<G>,
    connect: (socket: WebSocket, guarded: G, request: SocketRequest<U, P, Q>) => void,
  ): void {
    // Filled by the guard before the upgrade, read once by the handler after it.
    const guarded = new WeakMap<FastifyRequest, G>();
    // The one place the untyped request of a hook is read as the route's.
    const typed = (request: FastifyRequest) => request as SocketRequest<U, P, Q>;
    const { stage = 'preHandler', ...shape } = spec;
    registerRoute(router, tags, {
      ...shape,
      method: 'GET',
      response: SOCKET,
      status: 101,
      ...declared,
      handler: upgradeRequired,
      options: {
        [stage]: async (request: FastifyRequest) => {
          guarded.set(request, await guard(typed(request)));
        },
        wsHandler: (socket: WebSocket, request: FastifyRequest) => {
          const value = guarded.get(request);
          guarded.delete(request);
          if (value === undefined) {
            socket.close(1011, 'not checked');
            return;
          }
          connect(socket, value, typed(request));
        },
      },
    });
  }

  function member<
    U extends string,
    T extends { org_id: string },
    R,
    P extends TSchema | undefined = undefined,
    Q extends TSchema | undefined = undefined,
  >(spec: MemberSocket<U, P, Q, T, R>): void {
    const { key, permission, resource, find, access, followers, prepare, connect, ...shape } = spec;
    const rule = keyAccess(key);
    const role = permissionNote(permission);
    register(
      shape,
      {
        access: 'authenticated',
        rule: key,
        guard: permission,
        notes: [role.note, rule.note],
        errors: [...IMPLIED, ...rule.errors, ...role.errors, ...(spec.errors ?? [])],
      },
      async (request) => {
        const principal = requirePrincipal(request);
        const target = await find(ctx.db, request);
        if (target === undefined) throw notFound(resource);
        const granted =
          access === undefined
            ? await memberAccess(ctx.db, principal, target.org_id, resource)
            : await access(ctx.db, principal, target);
        requireRole(granted.role, permission);
        const prepared = await prepare(granted, target, request);
        if (followers === true) tooManyFollowers(ctx.followers, principal);
        return { prepared };
      },
      (socket, { prepared }, request) => {
        if (followers === true && !ctx.followers.hold(socket, requirePrincipal(request))) {
          return;
        }
        connect(socket, prepared, request);
      },
    );
  }

  function credential<
    U extends string,
    C,
    P extends TSchema | undefined = undefined,
    Q extends TSchema | undefined = undefined,
  >(spec: CredentialSocket<U, P, Q, C>): void {
    const { credential: name, authenticate, connect, ...shape } = spec;
    register(
      shape,
      {
        access: 'public',
        guard: name,
        notes: [],
        errors: ['validation_failed', ...(spec.errors ?? [])],
      },
      async (request) => ({ value: await authenticate(request) }),
      (socket, { value }, request) => connect(socket, value, request),
    );
  }

  return { member, credential };
}
