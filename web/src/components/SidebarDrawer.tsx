import * as RadixDialog from '@radix-ui/react-dialog';
import { useRouterState } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';

const FOCUS =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

/**
 * On a narrow screen the sidebar is a drawer: a menu button (in the header)
 * opens it from the left as a modal dialog; going to a page closes it.
 */
export function SidebarDrawer({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const path = useRouterState({ select: (state) => state.location.pathname });
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on each change of page
  useEffect(() => setOpen(false), [path]);
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger
        className={`rounded-md p-1.5 text-zinc-700 hover:bg-zinc-100 md:hidden dark:text-zinc-200 dark:hover:bg-zinc-800 ${FOCUS}`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 fill-current">
          <path d="M3 5h14v1.5H3V5Zm0 4.25h14v1.5H3v-1.5Zm0 4.25h14V15H3v-1.5Z" />
        </svg>
        <span className="sr-only">Menu</span>
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/40 md:hidden" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-[min(18rem,85vw)] flex-col gap-4 overflow-y-auto border-r border-zinc-200 bg-white p-3 text-zinc-900 shadow-xl md:hidden dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <div className="flex items-center justify-between">
            <RadixDialog.Title className="px-2 text-sm font-medium text-zinc-600 dark:text-zinc-400">
              Menu
            </RadixDialog.Title>
            <RadixDialog.Close
              className={`rounded-md px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800 ${FOCUS}`}
            >
              Close
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
