import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { orgsQuery } from '../../api/orgs.js';

/** The caller's organizations (the development platform), each a link to its dashboard. */
export function Organizations() {
  const orgs = useQuery(orgsQuery);
  return (
    <section aria-labelledby="orgs-title">
      <h2 id="orgs-title" className="mb-3 text-2xl font-semibold">
        Organizations
      </h2>
      {orgs.isPending ? <p>Loading…</p> : null}
      {orgs.isError ? <p role="alert">{orgs.error.message}</p> : null}
      {orgs.data?.length === 0 ? (
        <p className="text-zinc-700 dark:text-zinc-300">
          No organization yet: create one below to run workers and deployments.
        </p>
      ) : null}
      <ul className="flex flex-col gap-2">
        {orgs.data?.map((org) => (
          <li key={org.id}>
            <Link
              to="/orgs/$orgId"
              params={{ orgId: org.id }}
              className="flex items-center justify-between rounded-lg border border-zinc-200 bg-white px-4 py-3 hover:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:bg-zinc-900"
            >
              <span className="font-medium">{org.name}</span>
              <span className="text-sm text-zinc-600 dark:text-zinc-400">{org.role}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
