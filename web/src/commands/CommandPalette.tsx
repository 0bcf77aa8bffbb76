import * as RadixDialog from '@radix-ui/react-dialog';
import { Command, defaultFilter } from 'cmdk';
import { Keys } from './Keys.js';
import { groupEntries, type PaletteEntry } from './usePaletteEntries.js';

interface CommandPaletteProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  entries: PaletteEntry[];
}

/** Found by their label, group and keywords (an entry's value is its id, unique but unread). */
function matches(_value: string, search: string, keywords?: string[]): number {
  return defaultFilter((keywords ?? []).join(' '), search);
}

/**
 * The command palette (Ctrl/Cmd-K): type to find a list, a view, a page, a
 * workspace or an action, arrows to choose, Enter to run. A Radix dialog
 * (focus trapped and given back, Escape closes) around cmdk's list.
 */
export function CommandPalette({ open, onOpenChange, entries }: CommandPaletteProps) {
  const run = (entry: PaletteEntry) => {
    onOpenChange(false);
    entry.run();
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/40" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed top-[12vh] left-1/2 z-50 w-[min(36rem,calc(100vw-1.5rem))] -translate-x-1/2 overflow-hidden rounded-xl border border-zinc-200 bg-white text-zinc-900 shadow-xl dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <RadixDialog.Title className="sr-only">Command palette</RadixDialog.Title>
          <Command label="Commands" filter={matches} loop>
            <Command.Input
              placeholder="Search lists, views, pages, commands…"
              className="w-full border-b border-zinc-200 bg-transparent px-4 py-3 text-base outline-none placeholder:text-zinc-500 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-inset dark:border-zinc-700 dark:placeholder:text-zinc-400"
            />
            <Command.List className="max-h-[min(60vh,28rem)] overflow-y-auto p-2">
              <Command.Empty className="px-3 py-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
                Nothing matches.
              </Command.Empty>
              {groupEntries(entries).map(([group, list]) => (
                <Command.Group
                  key={group}
                  heading={group}
                  className="mb-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-zinc-600 dark:[&_[cmdk-group-heading]]:text-zinc-400"
                >
                  {list.map((entry) => (
                    <Command.Item
                      key={entry.id}
                      value={entry.id}
                      keywords={[entry.label, entry.group, ...(entry.keywords ?? [])]}
                      onSelect={() => run(entry)}
                      className="flex cursor-default items-center justify-between gap-3 rounded-md px-2 py-2 text-sm data-[selected=true]:bg-blue-50 data-[selected=true]:text-blue-900 data-[selected=true]:outline-2 data-[selected=true]:outline-blue-600 dark:data-[selected=true]:bg-blue-950 dark:data-[selected=true]:text-blue-100 dark:data-[selected=true]:outline-blue-400"
                    >
                      <span className="truncate">{entry.label}</span>
                      {entry.shortcut === undefined ? null : (
                        // Shown, not read: the option's name is its label (`?` lists the shortcuts).
                        <span aria-hidden="true">
                          <Keys shortcut={entry.shortcut} />
                        </span>
                      )}
                    </Command.Item>
                  ))}
                </Command.Group>
              ))}
            </Command.List>
          </Command>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
