/** The tone of a platform state: what a person should read from it at a glance. */
export type Tone = 'good' | 'moving' | 'bad' | 'idle';

const TONES: Record<string, Tone> = {
  ready: 'good',
  succeeded: 'good',
  queued: 'moving',
  running: 'good',
  online: 'good',
  creating: 'moving',
  starting: 'moving',
  stopping: 'moving',
  deleting: 'moving',
  deploying: 'moving',
  draining: 'moving',
  partial: 'moving',
  failed: 'bad',
  lost: 'bad',
  offline: 'bad',
  stopped: 'idle',
  cancelled: 'idle',
  empty: 'idle',
};

const CLASSES: Record<Tone, string> = {
  good: 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100',
  moving:
    'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100',
  bad: 'border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100',
  idle: 'border-zinc-300 bg-zinc-50 text-zinc-800 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-100',
};

/**
 * A worker's, node's, deployment's or service's state as a small labelled
 * badge (the word is always shown: colour is never the only sign).
 */
export function StateBadge({ state, reason }: { state: string; reason?: string | null }) {
  const tone = TONES[state] ?? 'idle';
  return (
    <span
      data-state={state}
      title={reason ?? undefined}
      className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium ${CLASSES[tone]}`}
    >
      <span aria-hidden="true" className={tone === 'moving' ? 'animate-pulse' : undefined}>
        ●
      </span>
      {state}
    </span>
  );
}
