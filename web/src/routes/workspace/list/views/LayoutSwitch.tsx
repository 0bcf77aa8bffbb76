import type { Layout } from './useViewDraft.js';

const LAYOUTS: Array<{ layout: Layout; label: string }> = [
  { layout: 'table', label: 'Table' },
  { layout: 'board', label: 'Board' },
];

/** Table or board: two pressed-or-not buttons (the choice is an unsaved change until saved). */
export function LayoutSwitch({
  layout,
  onChange,
}: {
  layout: Layout;
  onChange: (layout: Layout) => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar group of toggle buttons, not a form's fieldset.
    <div
      role="group"
      aria-label="Layout"
      className="flex rounded-md border border-zinc-300 p-0.5 dark:border-zinc-600"
    >
      {LAYOUTS.map((entry) => (
        <button
          key={entry.layout}
          type="button"
          aria-pressed={layout === entry.layout}
          onClick={() => onChange(entry.layout)}
          className="rounded px-2 py-1 text-sm text-zinc-700 focus-visible:outline-2 focus-visible:outline-blue-600 aria-pressed:bg-zinc-200 aria-pressed:font-medium aria-pressed:text-zinc-900 dark:text-zinc-300 dark:aria-pressed:bg-zinc-700 dark:aria-pressed:text-zinc-100"
        >
          {entry.label}
        </button>
      ))}
    </div>
  );
}
