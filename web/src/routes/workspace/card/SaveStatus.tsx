import type { SaveState } from './useDraftSaver.js';

/** Whether the title and body are saved, in words; a failed save says the text is kept here. */
export function SaveStatus({ state, onRetry }: { state: SaveState; onRetry: () => void }) {
  if (state.kind === 'failed') {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      >
        <span>
          Not saved: {state.message}. Your text is kept on this device and will be sent again.
        </span>
        <button
          type="button"
          className="rounded border border-amber-400 px-2 py-0.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-amber-600"
          onClick={onRetry}
        >
          Retry now
        </button>
      </div>
    );
  }
  return (
    <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
      {state.kind === 'saved' ? 'Saved' : 'Saving…'}
    </p>
  );
}
