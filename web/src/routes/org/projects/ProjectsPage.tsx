import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { projectsQuery } from '../../../api/projects.js';
import { useOrg } from '../context.js';
import { CreateProjectForm } from './CreateProjectForm.js';

/** The organization's projects, by name, with their descriptions; and a new one. */
export function ProjectsPage() {
  const org = useOrg();
  const projects = useQuery(projectsQuery(org.id));
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <h1 className="text-2xl font-semibold">Projects</h1>
      {projects.error ? <p role="alert">{projects.error.message}</p> : null}
      <section aria-labelledby="projects-list-title" className="flex flex-col gap-2">
        <h2 id="projects-list-title" className="sr-only">
          Every project
        </h2>
        {projects.data?.length === 0 ? (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            No project yet: create the first below.
          </p>
        ) : null}
        <ul className="flex flex-col divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white dark:divide-zinc-700 dark:border-zinc-700 dark:bg-zinc-900">
          {projects.data?.map((project) => (
            <li key={project.id} className="flex flex-col gap-0.5 px-4 py-3">
              <Link
                to="/orgs/$orgId/projects/$projectId"
                params={{ orgId: org.id, projectId: project.id }}
                className="self-start font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
              >
                {project.name}
              </Link>
              <p className="text-sm text-zinc-700 dark:text-zinc-300">
                {project.description ?? <span className="italic">No description.</span>}
              </p>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                {project.repositories.length} repositories · version {project.version}
              </p>
            </li>
          ))}
        </ul>
      </section>
      <CreateProjectForm orgId={org.id} />
    </div>
  );
}
