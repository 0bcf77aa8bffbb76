import { useInfiniteQuery } from '@tanstack/react-query';
import { deliveriesQuery } from '../../../../api/webhooks.js';
import { Button } from '../../../../components/Button.js';
import { DeliveryRow } from './DeliveryRow.js';

interface DeliveriesProps {
  workspaceId: string;
  endpointId: string;
  canManage: boolean;
}

/** The endpoint's deliveries, newest first; followed every two seconds while some are pending. */
export function Deliveries({ workspaceId, endpointId, canManage }: DeliveriesProps) {
  const deliveries = useInfiniteQuery({
    ...deliveriesQuery(workspaceId, endpointId),
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.deliveries.some((delivery) => delivery.state === 'pending'),
      )
        ? 2000
        : false,
  });
  const all = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];
  return (
    <section aria-labelledby="deliveries-title" className="flex flex-col gap-3">
      <h3 id="deliveries-title" className="text-lg font-semibold">
        Deliveries
      </h3>
      {deliveries.isPending ? <p>Loading…</p> : null}
      {deliveries.isError ? <p role="alert">{deliveries.error.message}</p> : null}
      {deliveries.isSuccess && all.length === 0 ? (
        <p className="text-zinc-700 dark:text-zinc-300">No delivery yet.</p>
      ) : null}
      <ul className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white empty:hidden dark:divide-zinc-800 dark:border-zinc-700 dark:bg-zinc-900">
        {all.map((delivery) => (
          <DeliveryRow
            key={delivery.id}
            workspaceId={workspaceId}
            endpointId={endpointId}
            delivery={delivery}
            canManage={canManage}
          />
        ))}
      </ul>
      {deliveries.hasNextPage ? (
        <Button
          variant="quiet"
          className="self-center"
          disabled={deliveries.isFetchingNextPage}
          onClick={() => void deliveries.fetchNextPage()}
        >
          Load more
        </Button>
      ) : null}
    </section>
  );
}
