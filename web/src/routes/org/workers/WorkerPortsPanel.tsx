import { useQuery } from '@tanstack/react-query';
import { type WorkerPorts, type WorkerRef, workerPortsQuery } from '../../../api/workers.js';

type Listening = WorkerPorts['listening'][number];

/** One entry a port, with every address it is listened on (IPv4 and IPv6 alike). */
function byPort(listening: readonly Listening[]) {
  const ports = new Map<number, { port: number; protocol: string; addresses: string[] }>();
  for (const open of listening) {
    const known = ports.get(open.port);
    if (known === undefined) {
      ports.set(open.port, { port: open.port, protocol: open.protocol, addresses: [open.address] });
    } else if (!known.addresses.includes(open.address)) known.addresses.push(open.address);
  }
  return [...ports.values()].sort((a, b) => a.port - b.port);
}

/** The ports processes listen on now, and the forwarded ones with their public URLs as links. */
export function WorkerPortsPanel({
  workerRef,
  running,
}: {
  workerRef: WorkerRef;
  running: boolean;
}) {
  const ports = useQuery(workerPortsQuery(workerRef, running));
  const forwarded = new Map(ports.data?.forwarded.map((port) => [port.port, port]));
  const listening = byPort(ports.data?.listening ?? []);
  const notListening = (ports.data?.forwarded ?? []).filter(
    (port) => !listening.some((open) => open.port === port.port),
  );
  return (
    <section
      aria-labelledby="worker-ports"
      className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="worker-ports" className="text-lg font-semibold">
        Listening ports
      </h2>
      {ports.error === null ? null : <p role="alert">{ports.error.message}</p>}
      {ports.data !== undefined && listening.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No process listens on a port.</p>
      ) : null}
      <ul aria-label="Ports listened on" className="flex flex-col gap-1">
        {listening.map((open) => {
          const url = forwarded.get(open.port)?.url;
          return (
            <li key={open.port} className="text-sm">
              <span className="font-medium">{open.port}</span>{' '}
              <span className="text-zinc-600 dark:text-zinc-400">
                {open.protocol} on {open.addresses.join(', ')}
              </span>
              {url ? (
                <>
                  {' · '}
                  <a href={url} className="text-blue-700 underline dark:text-blue-300">
                    {url}
                  </a>
                </>
              ) : (
                <span className="text-zinc-600 dark:text-zinc-400"> · not forwarded</span>
              )}
            </li>
          );
        })}
      </ul>
      {notListening.length === 0 ? null : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Forwarded, nothing listening yet:{' '}
          {notListening.map((port) => `${port.port}${port.url ? ` (${port.url})` : ''}`).join(', ')}
        </p>
      )}
    </section>
  );
}
