import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { projectsQuery } from '../../../api/projects.js';
import { TextField } from '../../../components/TextField.js';

export interface SourceDraft {
  type: 'image' | 'project';
  image: string;
  projectId: string;
  branch: string;
}

export const SELECT =
  'rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

/** Where a service's image comes from: an image reference, or a project of the organization (and branch). */
export function SourceFields(props: {
  orgId: string;
  source: SourceDraft;
  onChange: (source: SourceDraft) => void;
  error?: string | undefined;
}) {
  const { source, onChange } = props;
  const projects = useQuery(projectsQuery(props.orgId));
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">Source</legend>
      <div className="flex gap-4">
        {(['image', 'project'] as const).map((type) => (
          <label key={type} className="flex items-center gap-1 text-sm">
            <input
              type="radio"
              name={`${id}-source`}
              checked={source.type === type}
              onChange={() => onChange({ ...source, type })}
            />
            {type === 'image' ? 'From an image' : 'From a project'}
          </label>
        ))}
      </div>
      {source.type === 'image' ? (
        <TextField
          label="Image"
          value={source.image}
          placeholder="busybox:1.36"
          onChange={(event) => onChange({ ...source, image: event.target.value })}
          error={props.error}
        />
      ) : (
        <>
          <label htmlFor={`${id}-project`} className="text-sm font-medium">
            Project
          </label>
          <select
            id={`${id}-project`}
            className={SELECT}
            value={source.projectId}
            onChange={(event) => onChange({ ...source, projectId: event.target.value })}
          >
            <option value="">Choose a project</option>
            {projects.data?.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
          <TextField
            label="Branch"
            value={source.branch}
            hint="Empty: the project's own branch."
            onChange={(event) => onChange({ ...source, branch: event.target.value })}
            error={props.error}
          />
        </>
      )}
    </fieldset>
  );
}

export function sourceDraft(source: {
  type: 'image' | 'project';
  image?: string;
  projectId?: string;
  branch?: string | null;
}): SourceDraft {
  return {
    type: source.type,
    image: source.image ?? '',
    projectId: source.projectId ?? '',
    branch: source.branch ?? '',
  };
}

export function sourceBody(draft: SourceDraft) {
  return draft.type === 'image'
    ? { type: 'image' as const, image: draft.image.trim() }
    : {
        type: 'project' as const,
        projectId: draft.projectId,
        branch: draft.branch.trim() === '' ? null : draft.branch.trim(),
      };
}
