import { refusalOf } from '../../../../api/errors.js';
import { formatMoment } from '../../../../api/events.js';
import { useReplayDelivery, type WebhookDelivery } from '../../../../api/webhooks.js';
import { Button } from '../../../../components/Button.js';

const STATE_STYLES = {
  pending: 'bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100',
  succeeded: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200',
  failed: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
} as const;

const STATE_WORDS = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' } as const;

interface DeliveryRowProps {
  workspaceId: string;
  endpointId: string;
  delivery: WebhookDelivery;
  canManage: boolean;
}

/** A delivery: its event, state, last answer and error; its attempts unfold; replay it. */
export function DeliveryRow({ workspaceId, endpointId, delivery, canManage }: DeliveryRowProps) {
  const replay = useReplayDelivery(workspaceId, endpointId);
  const label = `${delivery.eventType} of ${formatMoment(delivery.createdAt)}`;
  return (
    <li aria-label={`Delivery ${label}`} className="flex flex-col gap-2 px-4 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATE_STYLES[delivery.state]}`}
          >
            {STATE_WORDS[delivery.state]}
          </span>
          <code className="text-sm">{delivery.eventType}</code>
          {delivery.kind === 'batch' ? (
            <span className="text-sm text-zinc-600 dark:text-zinc-400">
              batch of {delivery.eventCount}
            </span>
          ) : null}
          <time dateTime={delivery.createdAt} className="text-sm text-zinc-600 dark:text-zinc-400">
            {formatMoment(delivery.createdAt)}
          </time>
        </div>
        {canManage ? (
          <Button
            variant="quiet"
            className="px-3 py-1"
            aria-label={`Replay the delivery ${label}`}
            disabled={replay.isPending}
            onClick={() => replay.mutate(delivery.id)}
          >
            Replay
          </Button>
        ) : null}
      </div>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {delivery.attemptCount} {delivery.attemptCount === 1 ? 'attempt' : 'attempts'}
        {delivery.lastStatusCode === null ? '' : ` · last answer ${delivery.lastStatusCode}`}
        {delivery.lastError === null ? '' : ` · ${delivery.lastError}`}
        {delivery.state === 'pending' && delivery.nextAttemptAt !== null
          ? ` · next attempt ${formatMoment(delivery.nextAttemptAt)}`
          : ''}
      </p>
      {replay.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {refusalOf(replay.error).message}
        </p>
      ) : null}
      {delivery.attempts.length > 0 ? (
        <details className="text-sm">
          <summary className="cursor-pointer text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300">
            Attempts
          </summary>
          <ol className="mt-2 flex flex-col gap-1">
            {delivery.attempts.map((attempt) => (
              <li key={attempt.number} className="text-zinc-700 dark:text-zinc-300">
                #{attempt.number} · {formatMoment(attempt.startedAt)} · {attempt.durationMs} ms ·{' '}
                {attempt.statusCode === null ? 'no answer' : `answered ${attempt.statusCode}`}
                {attempt.succeeded ? ' · succeeded' : ''}
                {attempt.error === null ? '' : ` · ${attempt.error}`}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </li>
  );
}
