import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type Project, useUpdateProject } from '../../../../api/projects.js';
import { SettingsForm } from './SettingsForm.js';

const FIELD_OF_CODE = {
  project_name_taken: 'name',
  duplicate_repository: 'repositories',
};

/**
 * The project's settings. The form starts again from the saved project
 * whenever a new configuration version is saved or restored.
 */
export function ProjectSettings({ project }: { project: Project }) {
  const update = useUpdateProject(project.orgId, project.id);
  const [savedFields, setSavedFields] = useState<string[]>([]);
  const refusal = update.isError ? refusalOf(update.error, FIELD_OF_CODE) : undefined;
  return (
    <section
      aria-labelledby="project-settings-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="project-settings-title" className="text-lg font-semibold">
        Settings
      </h2>
      <SettingsForm
        key={project.version}
        project={project}
        refusal={refusal}
        pending={update.isPending}
        onSave={(body, fields) => update.mutate(body, { onSuccess: () => setSavedFields(fields) })}
        onEdit={() => {
          if (update.isError) update.reset();
        }}
      />
      {update.isSuccess && savedFields.length > 0 ? (
        <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
          Saved {savedFields.join(', ')} as version {project.version}.
        </p>
      ) : null}
    </section>
  );
}
