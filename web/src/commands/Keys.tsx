import { displayShortcut } from './shortcuts.js';

/** Whether to show ⌘ rather than Ctrl. */
export const IS_MAC =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

/** A shortcut as keycaps ("G then S", "Ctrl+K"), read out in words. */
export function Keys({ shortcut }: { shortcut: string }) {
  const words = displayShortcut(shortcut, IS_MAC);
  return (
    <span className="flex shrink-0 items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400">
      {words.map((word, index) =>
        word === 'then' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the words of one shortcut, fixed in order
          <span key={index}>then</span>
        ) : (
          <kbd
            // biome-ignore lint/suspicious/noArrayIndexKey: the words of one shortcut, fixed in order
            key={index}
            className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-sans text-zinc-700 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-200"
          >
            {word}
          </kbd>
        ),
      )}
    </span>
  );
}
