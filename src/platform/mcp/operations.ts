import type { RouteRecord } from '../../app.js';

/** An operation of the platform API, as the tools call it. */
export interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  /** The route pattern, with its `/api` root and `:name` parameters. */
  url: string;
}

/** The operations every tool may call to find the organization it acts in (`org-resolution.ts`). */
export const ORG_LOOKUPS: readonly string[] = ['listOrganizations', 'getOrganization'];

const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'DELETE']);

function isToolMethod(method: string): method is Operation['method'] {
  return METHODS.has(method);
}

/**
 * The platform route serving `operationId`. A tool names the operation it
 * calls, never a path, so a route that moves takes its tools along; one that
 * is gone fails here (and in the tool server's test), not as a 404 at run time.
 */
export function findOperation(routes: readonly RouteRecord[], operationId: string): Operation {
  const route = routes.find(
    (candidate) =>
      candidate.api === 'platform' &&
      candidate.method !== 'HEAD' &&
      candidate.operationId === operationId,
  );
  if (route === undefined) throw new Error(`no platform route serves operation ${operationId}`);
  const { method, url } = route;
  if (!isToolMethod(method)) throw new Error(`operation ${operationId} is a ${method}`);
  return { method, url };
}

/** The route pattern with each `:name` filled from `params` (encoded); a missing one throws. */
export function fillPath(url: string, params: Readonly<Record<string, string>>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${url} needs the parameter ${name}`);
    return encodeURIComponent(value);
  });
}
