import * as RadixMenu from '@radix-ui/react-dropdown-menu';

const ITEM =
  'flex cursor-default items-center justify-between gap-3 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800';

/** The class of a sidebar's page link (a workspace's, an organization's). */
export const NAV_LINK =
  'block rounded-md px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 data-[status=active]:bg-zinc-200 data-[status=active]:font-medium dark:text-zinc-300 dark:hover:bg-zinc-800 dark:data-[status=active]:bg-zinc-800';

interface SwitcherProps<T extends { id: string; name: string }> {
  current: T;
  /** The person's others, the current one among them (undefined while they load). */
  choices: readonly T[] | undefined;
  /** What they are: "workspace", "organization". */
  kind: string;
  /** The menu's heading ("Your workspaces"). */
  heading: string;
  onPick: (choice: T) => void;
  /** The entries under the list (all of them, create one). */
  actions: ReadonlyArray<{ label: string; onSelect: () => void }>;
}

/**
 * The current workspace's or organization's name at the top of a sidebar,
 * opening a menu of the person's others (the current one checked) and
 * actions below them.
 */
export function Switcher<T extends { id: string; name: string }>(props: SwitcherProps<T>) {
  const { current } = props;
  return (
    // Not modal: a modal menu hides the page from readers with aria-hidden while focus is still on its trigger.
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger className="flex w-full items-center justify-between gap-2 rounded-md px-2 py-1.5 text-left font-semibold hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800">
        {/* Named by its content, not aria-label, so that the name is no label of the page. */}
        <span className="truncate">
          {current.name}
          <span className="sr-only">, switch {props.kind}</span>
        </span>
        <span aria-hidden="true" className="text-xs text-zinc-500 dark:text-zinc-400">
          ▾
        </span>
      </RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content
          align="start"
          sideOffset={4}
          className="z-50 max-h-96 min-w-56 overflow-y-auto rounded-md border border-zinc-200 bg-white p-1 text-sm text-zinc-900 shadow-md dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <RadixMenu.Label className="px-2 py-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">
            {props.heading}
          </RadixMenu.Label>
          {(props.choices ?? [current]).map((choice) => (
            <RadixMenu.CheckboxItem
              key={choice.id}
              checked={choice.id === current.id}
              onSelect={() => props.onPick(choice)}
              className={ITEM}
            >
              <span className="truncate">{choice.name}</span>
              <RadixMenu.ItemIndicator
                aria-hidden="true"
                className="text-blue-700 dark:text-blue-300"
              >
                ✓
              </RadixMenu.ItemIndicator>
            </RadixMenu.CheckboxItem>
          ))}
          <RadixMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-700" />
          {props.actions.map((action) => (
            <RadixMenu.Item key={action.label} onSelect={action.onSelect} className={ITEM}>
              {action.label}
            </RadixMenu.Item>
          ))}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
