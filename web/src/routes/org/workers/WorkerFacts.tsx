import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { nodesQuery } from '../../../api/nodes.js';
import type { Worker } from '../../../api/workers.js';
import { StateBadge } from '../../../components/StateBadge.js';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="text-xs font-medium text-zinc-600 uppercase dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** Branch, node (with its state), image, repositories and public URLs of a worker. */
export function WorkerFacts({ worker }: { worker: Worker }) {
  const nodes = useQuery(nodesQuery(worker.orgId));
  const node = nodes.data?.find((candidate) => candidate.id === worker.nodeId);
  return (
    <section
      aria-label="Details"
      className="rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Fact term="Branch">{worker.branch ?? 'The default branch'}</Fact>
        <Fact term="Node">
          {node === undefined ? (
            'A node'
          ) : (
            <span className="flex items-center gap-2">
              {node.name} <StateBadge state={node.status} />
            </span>
          )}
        </Fact>
        <Fact term="Image">
          <code className="text-sm">{worker.image}</code>
        </Fact>
        <Fact term="Repositories">
          {worker.repositories.length === 0 ? 'None' : null}
          <ul>
            {worker.repositories.map((repository) => (
              <li key={repository.path}>
                <code className="text-sm">{repository.path}</code>{' '}
                <span className="text-sm text-zinc-600 dark:text-zinc-400">
                  {repository.cloned === false ? `not cloned: ${repository.message ?? ''}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </Fact>
        <Fact term="Public URLs">
          {worker.urls.length === 0 ? 'None: the project forwards no port.' : null}
          <ul>
            {worker.urls.map((url) => (
              <li key={url}>
                <a href={url} className="text-blue-700 underline dark:text-blue-300">
                  {url}
                </a>
              </li>
            ))}
          </ul>
        </Fact>
      </dl>
    </section>
  );
}
