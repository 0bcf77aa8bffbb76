/** A private service's sign-in step on the server (GET /api/services/{serviceId}/access). */
const SERVICE_ACCESS_PATH =
  /^\/api\/services\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/access$/i;

/**
 * Where to go after signing in: the `?redirect=` the router put on the
 * sign-in address, when it is a path inside the app, else the workspaces.
 * Anything that could leave the app is refused (an open redirect would let
 * a link to our sign-in screen send a person anywhere): absolute URLs, a
 * scheme (`javascript:`), protocol-relative `//host`, backslashes (browsers
 * read `/\host` as `//host`), control characters and the app's own
 * prefix doubled (`/app/...` would become `/app/app/...`).
 *
 * One path of the server is kept besides: a private service's sign-in step,
 * `/api/services/{uuid}/access?…` (where the server sends a browser without
 * a session), written exactly so (nothing the URL parser would rewrite, such
 * as `..` or `%2e`, no fragment); it is opened by a full page load
 * (`isServerPath`). Any other `/api` path is refused.
 */
export function safeRedirect(target: string | undefined): string {
  if (target === undefined || target === '') return '/';
  if (!target.startsWith('/')) return '/';
  if (target.startsWith('//') || target.includes('\\')) return '/';
  // Tabs and newlines are dropped by URL parsers, so `/\t/host` is `//host`.
  for (const character of target) {
    const code = character.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return '/';
  }
  // The same test the browser applies: resolved against a stand-in origin, it must stay there.
  let resolved: URL;
  try {
    resolved = new URL(target, 'http://app.invalid');
  } catch {
    return '/';
  }
  if (resolved.origin !== 'http://app.invalid') return '/';
  if (resolved.pathname === '/api' || resolved.pathname.startsWith('/api/')) {
    const kept = `${resolved.pathname}${resolved.search}`;
    const exact = kept === target && resolved.search.length > 1;
    return exact && SERVICE_ACCESS_PATH.test(resolved.pathname) ? kept : '/';
  }
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/**
 * Whether a destination `safeRedirect` kept is the server's (a private
 * service's sign-in step), to open by a full page load, not in the router.
 */
export function isServerPath(destination: string): boolean {
  return destination.startsWith('/api/');
}

/**
 * Goes on to a destination `safeRedirect` kept, once signed in (or
 * registered): a private service's step by a full page load, anything else
 * in the router.
 */
export function goOn(destination: string, navigate: (to: { href: string }) => unknown): void {
  if (isServerPath(destination)) window.location.assign(destination);
  else void navigate({ href: appHref(destination) });
}

/** The `?redirect=` to carry between the sign-in and registration screens (none when absent). */
export function carried(redirect: string | undefined): { redirect?: string } {
  return redirect === undefined ? {} : { redirect };
}

/** Where the app is served (the router's basepath): a `href` to navigate to includes it. */
export const APP_BASE = '/app';

/** The full address of a path of the app, for `navigate({ href })` and `redirect({ href })`. */
export function appHref(path: string): string {
  return `${APP_BASE}${path}`;
}
