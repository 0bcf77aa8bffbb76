import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import {
  type Project,
  type ProjectVersion,
  useRestoreVersion,
  versionsQuery,
} from '../../../../api/projects.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { VersionDiff } from './VersionDiff.js';

function actionWords(version: ProjectVersion): string {
  if (version.action === 'restore') return `restored from version ${version.restoredFrom ?? '?'}`;
  return version.action === 'create' ? 'created' : 'updated';
}

/** The configuration's versions, newest first; one compared with the current, and restored. */
export function Versions({ project }: { project: Project }) {
  const versions = useQuery(versionsQuery(project.orgId, project.id));
  const [picked, setPicked] = useState<number | undefined>();
  const [confirming, setConfirming] = useState(false);
  const restore = useRestoreVersion(project.orgId, project.id);
  const list = versions.data?.versions ?? [];
  const current = {
    name: project.name,
    description: project.description,
    repositories: project.repositories,
    features: project.features,
    extensions: project.extensions,
    forwardPorts: project.forwardPorts,
  };
  const selected = list.find((version) => version.version === picked);
  return (
    <section
      aria-labelledby="project-versions-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="project-versions-title" className="text-lg font-semibold">
        Configuration versions
      </h2>
      {versions.error ? <p role="alert">{versions.error.message}</p> : null}
      <ul className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-700">
        {list.map((version) => (
          <li key={version.version} className="flex flex-wrap items-center gap-3 py-2">
            <span className="font-medium">Version {version.version}</span>
            <span className="text-sm text-zinc-700 dark:text-zinc-300">
              {actionWords(version)} · {new Date(version.createdAt).toLocaleString()}
            </span>
            {version.version === project.version ? (
              <span className="rounded-full border border-zinc-300 px-2 text-xs dark:border-zinc-600">
                current
              </span>
            ) : (
              <Button
                variant="quiet"
                className="ml-auto px-3 py-1"
                aria-pressed={picked === version.version}
                onClick={() => {
                  restore.reset();
                  setPicked(picked === version.version ? undefined : version.version);
                }}
              >
                Compare version {version.version}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {selected && selected.version !== project.version ? (
        <section
          aria-labelledby="version-diff-title"
          className="flex flex-col gap-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-700"
        >
          <h3 id="version-diff-title" className="font-medium">
            Version {selected.version} against the current configuration (version {project.version})
          </h3>
          <VersionDiff current={current} to={selected.config} />
          <Button className="self-start" onClick={() => setConfirming(true)}>
            Restore version {selected.version}…
          </Button>
        </section>
      ) : null}
      {restore.isSuccess ? (
        <p role="status" className="text-sm">
          Restored: the settings above are now version {project.version}.
        </p>
      ) : null}
      <FormAlert
        message={restore.isError && !confirming ? refusalOf(restore.error).message : undefined}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Restore version ${selected?.version ?? ''}?`}
        description="Its configuration becomes current as a new version; secrets stay as they are. Unsaved edits of the settings are dropped."
        confirmLabel="Restore"
        error={restore.isError ? refusalOf(restore.error).message : undefined}
        pending={restore.isPending}
        onConfirm={() => {
          if (selected === undefined) return;
          restore.mutate(selected.version, {
            onSuccess: () => {
              setConfirming(false);
              setPicked(undefined);
            },
          });
        }}
      />
    </section>
  );
}
