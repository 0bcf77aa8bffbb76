import { forbidden } from '../../http/errors.js';

/** Every scope an API key can hold (the spec's table); anything else is refused at creation. */
export const SCOPES = [
  '*',
  'projects:read',
  'projects:write',
  'workers:read',
  'workers:write',
  'workers:exec',
  'deployments:read',
  'deployments:write',
  'deployments:access',
  'nodes:read',
  'nodes:write',
  'secrets:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** What each scope grants, for the API description. */
export const SCOPE_GRANTS: Readonly<Record<Scope, string>> = {
  '*': 'every scope',
  'projects:read': 'list and get projects, image builds, version history',
  'projects:write': 'create, update, delete projects, trigger builds, restore versions',
  'workers:read': 'list and get workers, logs, stats, git status, ports',
  'workers:write': 'spawn, stop, start, rebuild, delete workers',
  'workers:exec': 'running commands, terminal sessions and SSH tokens',
  'deployments:read': 'list and get deployments and services, service logs, job runs',
  'deployments:write':
    'create, update, delete deployments and services; start, stop, deploy; run jobs',
  'deployments:access': "reach a private service's own URL without a browser session",
  'nodes:read': 'list and get nodes, inventory',
  'nodes:write': 'create, delete nodes, rotate tokens, drain',
  'secrets:write': 'required in addition to `projects:write` to write project secrets',
};

export function isScope(value: string): value is Scope {
  return SCOPES.some((scope) => scope === value);
}

/** True when the granted scopes include the required one or `*`. */
export function hasScope(granted: readonly string[], required: Scope): boolean {
  return granted.includes('*') || granted.includes(required);
}

/** The first of the required scopes the key lacks, if any. */
export function missingScope(
  granted: readonly string[],
  required: readonly Scope[],
): Scope | undefined {
  return required.find((scope) => !hasScope(granted, scope));
}

/** Throws 403 `missing_scope`, naming the scope, unless every required scope is granted. */
export function requireScopes(granted: readonly string[], required: readonly Scope[]): void {
  const missing = missingScope(granted, required);
  if (missing === undefined) return;
  throw forbidden('missing_scope', `This API key lacks the scope ${missing}`, {
    missingScope: missing,
    requiredScopes: required,
  });
}
