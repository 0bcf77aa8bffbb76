import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';

export interface MenuAction {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
}

/** A button that opens a menu of actions (Radix: arrow keys, typeahead, Escape). */
export function Menu({
  label,
  trigger,
  actions,
}: {
  label: string;
  trigger: ReactNode;
  actions: MenuAction[];
}) {
  return (
    <RadixMenu.Root>
      <RadixMenu.Trigger
        aria-label={label}
        className="rounded-md px-2 py-1 text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800"
      >
        {trigger}
      </RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-40 rounded-md border border-zinc-200 bg-white p-1 text-sm shadow-md dark:border-zinc-700 dark:bg-zinc-900"
        >
          {actions.map((action) => (
            <RadixMenu.Item
              key={action.label}
              disabled={action.disabled}
              onSelect={action.onSelect}
              className={`cursor-default rounded px-2 py-1.5 outline-none data-[disabled]:opacity-50 data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800 ${action.danger ? 'text-red-700 dark:text-red-300' : ''}`}
            >
              {action.label}
            </RadixMenu.Item>
          ))}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
