import type { ReactNode } from 'react';

/** A titled panel of a deployment screen, a landmark named by its heading. */
export function Section(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={props.id}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id={props.id} className="text-lg font-semibold">
        {props.title}
      </h2>
      {props.children}
    </section>
  );
}

export const ROW =
  'flex items-center justify-between gap-3 rounded-md px-2 py-1.5 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800';

export const MUTED = 'text-sm text-zinc-600 dark:text-zinc-400';

export const LINK = 'text-blue-700 underline dark:text-blue-300';
