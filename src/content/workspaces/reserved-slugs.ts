/**
 * Slugs the web app's own top-level paths use (web/src/router.tsx, under
 * `/app/`): a workspace with one of them could never be opened at
 * `/app/{slug}`, since the app's screen (or its assets) answers there. A new
 * static top-level route of the app adds its first segment here.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'sign-in',
  'sign-out',
  'register',
  'invite',
  'oauth',
  'assets',
  'api',
  'auth',
  'orgs',
  'account',
]);
