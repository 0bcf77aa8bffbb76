import type { WebhookEndpoint } from '../../../../api/webhooks.js';

/** The endpoint's state in words: active, or paused and why. */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.state === 'active') {
    return (
      <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-900 dark:bg-green-950 dark:text-green-200">
        Active
      </span>
    );
  }
  return (
    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200">
      {endpoint.pauseReason === 'failures' ? 'Paused after repeated failures' : 'Paused'}
    </span>
  );
}
