/** The editor's form controls: small, with the app's focus ring. */
export const CONTROL =
  'rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 outline-none focus-visible:border-blue-600 focus-visible:ring-2 focus-visible:ring-blue-600/40 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

export const QUIET =
  'rounded-md px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-300 dark:hover:bg-zinc-800';
