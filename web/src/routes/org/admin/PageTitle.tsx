import type { ReactNode } from 'react';

/** A screen's heading with one sentence about it. */
export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <h1 className="text-2xl font-semibold">{title}</h1>
      {children === undefined ? null : (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{children}</p>
      )}
    </div>
  );
}
