/** Says the card is archived (read-only until restored), with the way back. */
export function ArchivedBanner({
  canWrite,
  onRestore,
}: {
  canWrite: boolean;
  onRestore: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md border border-zinc-300 bg-zinc-100 px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-800">
      <span>This card is archived. Restore it to edit it.</span>
      {canWrite ? (
        <button
          type="button"
          className="rounded border border-zinc-400 px-2 py-0.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-500"
          onClick={onRestore}
        >
          Restore
        </button>
      ) : null}
    </div>
  );
}
