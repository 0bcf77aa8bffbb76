import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { projectQuery } from '../../../api/projects.js';
import { useOrg } from '../context.js';
import { ProjectWorkers } from '../workers/ProjectWorkers.js';
import { Builds } from './builds/Builds.js';
import { DeleteProject } from './DeleteProject.js';
import { Secrets } from './secrets/Secrets.js';
import { ProjectSettings } from './settings/ProjectSettings.js';
import { Versions } from './versions/Versions.js';

/** One project: its workers, settings, secrets, versions, image builds, and deleting it. */
export function ProjectPage() {
  const org = useOrg();
  const { projectId } = useParams({ from: '/signed-in/orgs/$orgId/projects/$projectId' });
  const project = useQuery(projectQuery(org.id, projectId));
  if (project.error) {
    return (
      <div className="mx-auto flex max-w-4xl flex-col gap-3">
        <h1 className="text-2xl font-semibold">Project not found</h1>
        <p role="alert">{project.error.message}</p>
        <Link to="/orgs/$orgId/projects" params={{ orgId: org.id }} className="underline">
          All projects
        </Link>
      </div>
    );
  }
  if (project.data === undefined) return <p aria-busy="true">Loading the project…</p>;
  const data = project.data;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <header className="flex flex-col gap-1">
        <Link
          to="/orgs/$orgId/projects"
          params={{ orgId: org.id }}
          className="self-start text-sm text-blue-700 underline dark:text-blue-300"
        >
          All projects
        </Link>
        <h1 className="text-2xl font-semibold">{data.name}</h1>
        <p className="text-zinc-700 dark:text-zinc-300">
          {data.description ?? <span className="italic">No description.</span>}
        </p>
      </header>
      {/* The project's workers: the workers area's component (spawn, list, live states). */}
      <section
        aria-labelledby="project-workers-title"
        className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
      >
        <h2 id="project-workers-title" className="text-lg font-semibold">
          Workers
        </h2>
        <ProjectWorkers orgId={org.id} projectId={data.id} />
      </section>
      <ProjectSettings project={data} />
      <Secrets project={data} />
      <Versions project={data} />
      <Builds project={data} />
      <DeleteProject project={data} />
    </div>
  );
}
