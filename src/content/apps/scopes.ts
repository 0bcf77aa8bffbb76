import Type from 'typebox';
import { forbidden } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';

/** The app scopes (spec: Authentication 10), each with the label a consent screen shows. */
export const APP_SCOPES = {
  'items:read': 'Read cards, their bodies and the workspace overview',
  'items:write': 'Create, change, move, duplicate, import and delete cards',
  'schema:read': 'Read fields, statuses, lists, list groups and saved views',
  'schema:write': 'Change fields, statuses, lists, list groups and saved views',
  'members:read': 'See the members of the workspace',
  'files:read': 'Download files',
  'files:write': 'Upload and delete files',
  'events:read': 'Read the event log',
  'webhooks:read': 'See webhook endpoints and their deliveries',
  'webhooks:write': 'Create, change, pause, resume and replay webhooks',
} as const;

export type AppScope = keyof typeof APP_SCOPES;
export const SCOPE_NAMES = Object.keys(APP_SCOPES) as AppScope[];

export const AppScopeSchema = Type.Enum(SCOPE_NAMES, { description: 'An app scope.' });

export function isAppScope(value: string): value is AppScope {
  return Object.hasOwn(APP_SCOPES, value);
}

/**
 * For checks that depend on the request body (an import with collections also
 * needs `schema:write`): an app principal lacking a scope gets 403
 * `missing_scope`; other principals pass.
 */
export function requireAppScopes(principal: Principal, needed: readonly AppScope[]): void {
  if (principal.kind === 'app') checkScopes(principal.scopes, needed);
}

/** 403 `missing_scope`, naming what is missing, unless every needed scope was granted. */
export function checkScopes(granted: readonly string[], needed: readonly string[]): void {
  const missing = needed.filter((scope) => !granted.includes(scope));
  if (missing.length > 0) {
    throw forbidden('missing_scope', `This app needs the scope ${missing.join(' and ')}`, {
      missing,
    });
  }
}
