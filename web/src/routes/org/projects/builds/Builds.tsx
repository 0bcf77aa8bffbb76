import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { imageBuildsQuery, useBuildProject } from '../../../../api/image-builds.js';
import { nodesQuery } from '../../../../api/nodes.js';
import type { Project } from '../../../../api/projects.js';
import { Button } from '../../../../components/Button.js';
import { StateBadge } from '../../../../components/StateBadge.js';
import { BuildFollow } from './BuildFollow.js';

/**
 * Pre-builds: a button that builds the current version on every usable
 * node; the builds (asked again while one moves); one followed live.
 */
export function Builds({ project }: { project: Project }) {
  const builds = useQuery(imageBuildsQuery(project.orgId, project.id));
  const nodes = useQuery(nodesQuery(project.orgId));
  const build = useBuildProject(project.orgId, project.id);
  const [followed, setFollowed] = useState<string | undefined>();
  const nodeName = new Map(nodes.data?.map((node) => [node.id, node.name]));
  const refusal = build.isError ? refusalOf(build.error) : undefined;
  const list = builds.data ?? [];
  const shown = list.find((candidate) => candidate.id === followed);
  return (
    <section
      aria-labelledby="project-builds-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="project-builds-title" className="text-lg font-semibold">
          Image builds
        </h2>
        <Button
          className="ml-auto"
          disabled={build.isPending}
          aria-describedby={refusal ? 'build-refusal' : undefined}
          onClick={() =>
            build.mutate(undefined, {
              onSuccess: (queued) => setFollowed(queued[0]?.id),
            })
          }
        >
          Build image
        </Button>
      </div>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Builds version {project.version} on every online node: new workers there start from it.
      </p>
      {refusal ? (
        <p id="build-refusal" role="alert" className="text-sm text-red-700 dark:text-red-300">
          {refusal.message}
        </p>
      ) : null}
      {builds.error ? <p role="alert">{builds.error.message}</p> : null}
      {list.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">No build yet.</p>
      ) : (
        <ul
          aria-label="Builds"
          className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-700"
        >
          {list.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-3 py-2">
              <StateBadge state={item.status} />
              <span className="text-sm">
                Version {item.projectVersion} on {nodeName.get(item.nodeId) ?? 'a node'} ·{' '}
                {new Date(item.createdAt).toLocaleString()}
                {item.current ? ' · current' : ''}
              </span>
              {item.error ? (
                <span className="basis-full text-sm text-red-700 dark:text-red-300">
                  {item.error}
                </span>
              ) : null}
              <Button
                variant="quiet"
                className="ml-auto px-3 py-1"
                aria-pressed={followed === item.id}
                onClick={() => setFollowed(followed === item.id ? undefined : item.id)}
              >
                {followed === item.id ? 'Hide log' : 'Show log'}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {shown ? <BuildFollow key={shown.id} build={shown} /> : null}
    </section>
  );
}
