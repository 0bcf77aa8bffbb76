import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** One sentence under the title, read with it. */
  description?: string;
  children: ReactNode;
  /** Where focus goes once it closes (Radix: back to what opened it, unless this prevents it). */
  onCloseAutoFocus?: (event: Event) => void;
}

/** A modal dialog (Radix: focus trapped and restored, Escape closes, titled for readers). */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  onCloseAutoFocus,
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/40" />
        <RadixDialog.Content
          aria-describedby={description === undefined ? undefined : 'dialog-description'}
          onCloseAutoFocus={onCloseAutoFocus}
          className="fixed top-1/2 left-1/2 z-50 w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-zinc-200 bg-white p-6 text-zinc-900 shadow-lg focus-visible:outline-none dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <RadixDialog.Title className="mb-2 text-lg font-semibold">{title}</RadixDialog.Title>
          {description === undefined ? null : (
            <RadixDialog.Description
              id="dialog-description"
              className="mb-4 text-sm text-zinc-700 dark:text-zinc-300"
            >
              {description}
            </RadixDialog.Description>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
