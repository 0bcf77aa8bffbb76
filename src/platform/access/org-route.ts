import type { FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal } from '../../http/auth.js';
import type { ErrorCode } from '../../http/error-codes.js';
import {
  type Answer,
  plainRoutes,
  type RouteRequest,
  type RouteShape,
  type RuleMeaning,
  registerRoute,
} from '../../http/route.js';
import type { AppContext, Router } from '../../module.js';
import { orgAccess } from '../orgs/service.js';
import type { OrgAccess } from './org-access.js';
import {
  ORG_PERMISSIONS,
  ORG_ROLES,
  type OrgPermission,
  type OrgRole,
  requireRole,
} from './roles.js';
import type { Scope } from './scopes.js';

/**
 * What an organization API key needs to call a platform route:
 * - a list of scopes, every one of them required (`*` stands for any);
 * - `any-key`: any key of the organization, no scope (reads of the
 *   organization record itself, which the key's holder already knows);
 * - `session`: no key at all; the route is for signed-in people.
 */
export type KeyRule = readonly Scope[] | 'any-key' | 'session';

/** The access kind and credential rule a key rule stands for. */
export function keyAccess(key: KeyRule | 'public'): RuleMeaning {
  if (key === 'public') return { access: 'public', rule: undefined, note: '', errors: [] };
  if (key === 'session') {
    return {
      access: 'session',
      rule: undefined,
      note: '**API keys:** refused (403 `session_required`): for signed-in people only.',
      errors: ['session_required'],
    };
  }
  if (key === 'any-key') {
    return {
      access: 'authenticated',
      rule: 'any',
      note: '**API keys:** any key of this organization, no scope needed.',
      errors: [],
    };
  }
  const names = key.map((scope) => `\`${scope}\``).join(' and ');
  return {
    access: 'authenticated',
    rule: key,
    note: `**API keys:** need ${key.length > 1 ? 'the scopes' : 'the scope'} ${names} (or \`*\`).`,
    errors: ['missing_scope'],
  };
}

/**
 * The line the description gets for a role permission, and the code it may
 * answer: none when every role holds it (the check cannot refuse).
 */
export function permissionNote(permission: OrgPermission): {
  note: string;
  errors: ErrorCode[];
} {
  const allowed: readonly OrgRole[] = ORG_PERMISSIONS[permission];
  const note = `**Role:** ${allowed.join(' or ')} (\`${permission}\`).`;
  return { note, errors: allowed.length < ORG_ROLES.length ? ['insufficient_role'] : [] };
}

const IMPLIED: readonly ErrorCode[] = [
  'validation_failed',
  'unauthenticated',
  'invalid_token',
  'key_not_allowed',
  'not_found',
];

/** A route under `/orgs/:orgId` (served under `/api`). */
export interface OrgRoute<U extends string, P, Q, B, R extends TSchema>
  extends RouteShape<U, P, Q, B, R> {
  key: KeyRule;
  /**
   * The permission the caller's role needs (`roles.ts`). When the resource
   * decides more (one's own workers or keys, the owner role), this is the
   * base one and the resource's policy checks the rest in its service.
   */
  permission: OrgPermission;
  /**
   * Whether the work runs in one transaction opened here (with the
   * authorization). Default: every method but GET. Routes that wait on a
   * node's agent say false and open their own.
   */
  transaction?: boolean;
  handler(
    db: Database,
    access: OrgAccess,
    request: RouteRequest<U, P, Q, B>,
    reply: FastifyReply,
  ): Promise<Answer<R>>;
}

/**
 * The route declarations of one group of platform routes: each resolves the
 * caller's access to its organization and checks the role against the
 * route's permission, runs in a transaction when it writes, and answers with its
 * status. `plain` declares the group's routes outside an organization.
 */
export function orgRoutes(router: Router, ctx: AppContext, tags: readonly string[]) {
  function route<
    U extends `/orgs/:orgId${string}`,
    P = undefined,
    Q = undefined,
    B = undefined,
    R extends TSchema = TSchema,
  >(spec: OrgRoute<U, P, Q, B, R>): void {
    const { access, rule, note, errors } = keyAccess(spec.key);
    const write = spec.transaction ?? spec.method !== 'GET';
    const { note: roleNote, errors: roleErrors } = permissionNote(spec.permission);
    registerRoute(router, tags, {
      ...spec,
      access,
      rule,
      guard: spec.permission,
      notes: [roleNote, note],
      errors: [...IMPLIED, ...errors, ...roleErrors, ...(spec.errors ?? [])],
      handler: (request, reply) => {
        const principal = requirePrincipal(request);
        const { orgId } = request.params as { orgId: string };
        const work = async (db: Database) => {
          const granted = await orgAccess(db, principal, orgId);
          requireRole(granted.role, spec.permission);
          return spec.handler(db, granted, request, reply);
        };
        return write ? inTransaction(ctx.db, work) : work(ctx.db);
      },
    });
  }

  const plain = plainRoutes<{ key: KeyRule | 'public' }>(router, tags, IMPLIED, (spec) =>
    keyAccess(spec.key),
  );

  return { route, plain };
}
