import type { ReactNode } from 'react';

/** The centred panel of the sign-in and register screens. */
export function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby="card-title"
      className="mx-auto mt-16 w-full max-w-sm rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h1 id="card-title" className="mb-4 text-xl font-semibold">
        {title}
      </h1>
      {children}
    </section>
  );
}
