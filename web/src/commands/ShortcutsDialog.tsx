import { Button } from '../components/Button.js';
import { Dialog } from '../components/Dialog.js';
import { Keys } from './Keys.js';
import type { Command } from './registry.js';

/** Always there, whatever the screen. */
const GLOBAL = [
  { id: 'global.palette', label: 'Open the command palette', shortcut: 'mod+k' },
  { id: 'global.help', label: 'Show the keyboard shortcuts', shortcut: '?' },
];

/** The `?` dialog: every shortcut of the screens mounted now, by group. */
export function ShortcutsDialog({
  open,
  onOpenChange,
  commands,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  commands: Command[];
}) {
  const groups = new Map<string, Array<{ id: string; label: string; shortcut: string }>>([
    ['General', GLOBAL],
  ]);
  for (const command of commands) {
    if (command.shortcut === undefined) continue;
    const list = groups.get(command.group) ?? [];
    list.push({ id: command.id, label: command.label, shortcut: command.shortcut });
    groups.set(command.group, list);
  }
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Keyboard shortcuts"
      description="Single keys work when the focus is not in a text field."
    >
      <div className="max-h-[60vh] overflow-y-auto">
        {[...groups].map(([group, list]) => (
          <section key={group} aria-label={group} className="mb-4">
            <h3 className="mb-1 text-sm font-semibold">{group}</h3>
            <dl className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {list.map((item) => (
                <div key={item.id} className="flex items-center justify-between gap-3 py-1.5">
                  <dt className="text-sm">{item.label}</dt>
                  <dd>
                    <Keys shortcut={item.shortcut} />
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <div className="mt-2 flex justify-end">
        <Button variant="quiet" onClick={() => onOpenChange(false)}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
