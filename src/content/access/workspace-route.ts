import type { FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';
import { isPgError, PG_FOREIGN_KEY_VIOLATION } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal } from '../../http/auth.js';
import type { ErrorCode } from '../../http/error-codes.js';
import { notFound } from '../../http/errors.js';
import {
  type Answer,
  plainRoutes,
  type RouteRequest,
  type RouteShape,
  type RuleMeaning,
  registerRoute,
} from '../../http/route.js';
import type { AppContext, Router } from '../../module.js';
import type { AppScope } from '../apps/scopes.js';
import { holdRegistry, type RegistryHold } from '../fields/registry-lock.js';
import { authorizeWorkspace, type WorkspaceAccess } from './authorize.js';
import { type Action, PERMISSIONS } from './permissions.js';

/**
 * What an app token needs to call a content route:
 * - a list of scopes, every one of them required (the installation's role is
 *   checked as well, like any caller's);
 * - `any-app`: no scope (the app's own workspace record);
 * - `refused`: never for apps;
 * - `session`: for signed-in people only (keys and apps get 403 `session_required`).
 */
export type AppRule = readonly AppScope[] | 'any-app' | 'refused' | 'session';

/** The access kind and credential rule an app rule stands for. */
export function appAccess(app: AppRule | 'public'): RuleMeaning {
  if (app === 'public') return { access: 'public', rule: undefined, note: '', errors: [] };
  if (app === 'session') {
    return {
      access: 'session',
      rule: undefined,
      note: '**Apps and API keys:** refused; for signed-in people.',
      errors: ['session_required'],
    };
  }
  if (app === 'refused') {
    return {
      access: 'authenticated',
      rule: undefined,
      note: '**Apps:** refused (403 `app_not_allowed`).',
      errors: ['app_not_allowed'],
    };
  }
  if (app === 'any-app') {
    return {
      access: 'authenticated',
      rule: 'any',
      note: '**Apps:** any installed app, no scope.',
      errors: [],
    };
  }
  const names = app.map((scope) => `\`${scope}\``).join(' and ');
  return {
    access: 'authenticated',
    rule: app,
    note: `**Apps:** need ${app.length > 1 ? 'the scopes' : 'the scope'} ${names}.`,
    errors: ['missing_scope'],
  };
}

const IMPLIED: readonly ErrorCode[] = [
  'validation_failed',
  'unauthenticated',
  'invalid_token',
  'not_found',
];

const REGISTRY_NOTES: Record<RegistryHold, string> = {
  shared:
    '**Concurrency:** checked against the fields, options and statuses while holding them: one removed at the ' +
    'same moment is removed after this write (and from what it wrote) or makes it refuse, never both.',
  exclusive:
    '**Concurrency:** waits for writes that are checking against the fields, options and statuses, and holds ' +
    'new ones until it commits.',
};

/** A route under `/workspaces/:workspaceId`. */
export interface WorkspaceRoute<U extends string, P, Q, B, R extends TSchema>
  extends RouteShape<U, P, Q, B, R> {
  /** The permission the caller's role needs (`permissions.ts`). */
  action: Action;
  app: AppRule;
  /**
   * Whether the work runs in one transaction opened here (with the
   * authorization). Default: every route but GETs and `.read` actions.
   */
  transaction?: boolean;
  /**
   * How the write holds the workspace's registry (fields, options,
   * statuses), taken before the handler runs: `shared` when it validates
   * against it, `exclusive` when it removes from it (`registry-lock.ts`).
   */
  registry?: RegistryHold;
  /** Work done once the transaction has committed (removing file bytes); its failure is logged. */
  afterCommit?(request: RouteRequest<U, P, Q, B>): Promise<void>;
  handler(
    db: Database,
    access: WorkspaceAccess,
    request: RouteRequest<U, P, Q, B>,
    reply: FastifyReply,
  ): Promise<Answer<R>>;
}

/**
 * A write that fails on a foreign key because its workspace was deleted
 * while it ran (after its authorization) is answered as for an unknown
 * workspace, 404, not a 500; any other error stays as it is.
 */
async function workspaceGone(db: Database, workspaceId: string, error: unknown): Promise<unknown> {
  if (!isPgError(error) || error.code !== PG_FOREIGN_KEY_VIOLATION) return error;
  const row = await db
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return row === undefined ? notFound('Workspace') : error;
}

/**
 * The route declarations of one group of workspace routes: each is
 * authorized for its workspace and role, runs in a transaction when it
 * writes, and answers with its status. `plain` declares the group's routes
 * that are not under a workspace.
 */
export function workspaceRoutes(router: Router, ctx: AppContext, tags: readonly string[]) {
  function route<
    U extends `/workspaces/:workspaceId${string}`,
    P = undefined,
    Q = undefined,
    B = undefined,
    R extends TSchema = TSchema,
  >(spec: WorkspaceRoute<U, P, Q, B, R>): void {
    const { access, rule, note, errors } = appAccess(spec.app);
    const write = spec.transaction ?? (spec.method !== 'GET' && !spec.action.endsWith('.read'));
    if (spec.registry !== undefined && !write) {
      throw new Error(`${spec.operationId}: a route that holds the registry runs in a transaction`);
    }
    const roleNote = `**Role:** ${PERMISSIONS[spec.action]} or above (\`${spec.action}\`).`;
    registerRoute(router, tags, {
      ...spec,
      access,
      rule,
      guard: spec.action,
      notes: [
        roleNote,
        note,
        ...(spec.registry === undefined ? [] : [REGISTRY_NOTES[spec.registry]]),
      ],
      errors: [...IMPLIED, 'insufficient_role', ...errors, ...(spec.errors ?? [])],
      handler: async (request, reply) => {
        const principal = requirePrincipal(request);
        const { workspaceId } = request.params as { workspaceId: string };
        const work = async (db: Database) => {
          // The registry lock comes first, so the registry version read with the
          // authorization is one that no removal can change before this commits.
          if (spec.registry !== undefined) await holdRegistry(db, workspaceId, spec.registry);
          const granted = {
            ...(await authorizeWorkspace(db, principal, workspaceId, spec.action)),
            registries: ctx.registries,
            eventSinks: ctx.eventSinks,
          };
          return spec.handler(db, granted, request, reply);
        };
        if (!write) return work(ctx.db);
        const result = await inTransaction(ctx.db, work).catch(async (error: unknown) => {
          throw await workspaceGone(ctx.db, workspaceId, error);
        });
        await spec.afterCommit?.(request).catch((error: unknown) => {
          request.log.warn({ err: error }, 'committed, but the work after the commit failed');
        });
        return result;
      },
    });
  }

  const plain = plainRoutes<{ app: AppRule | 'public' }>(router, tags, IMPLIED, (spec) =>
    appAccess(spec.app),
  );

  return { route, plain };
}
