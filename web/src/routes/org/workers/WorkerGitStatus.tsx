import { useQuery } from '@tanstack/react-query';
import { type WorkerRef, workerGitStatusQuery } from '../../../api/workers.js';
import { Button } from '../../../components/Button.js';

const CHANGES: Record<string, string> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  U: 'unmerged',
  T: 'type changed',
  '?': 'untracked',
  '!': 'ignored',
};

/** A porcelain status pair in words ("modified in the work tree"). */
function changeWords(index: string, workTree: string): string {
  if (index === '?' || index === '!') return `${CHANGES[index]}:`;
  const staged = CHANGES[index];
  const unstaged = CHANGES[workTree];
  const parts = [
    staged === undefined ? '' : `${staged} in the index`,
    unstaged === undefined ? '' : `${unstaged} in the work tree`,
  ].filter(Boolean);
  return `${parts.join(', ')}:`;
}

/** Each repository's branch, how far ahead or behind its upstream, and its changed files. */
export function WorkerGitStatus({
  workerRef,
  running,
}: {
  workerRef: WorkerRef;
  running: boolean;
}) {
  const status = useQuery(workerGitStatusQuery(workerRef, running));
  return (
    <section
      aria-labelledby="worker-git"
      className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="worker-git" className="text-lg font-semibold">
          Git status
        </h2>
        <Button
          variant="quiet"
          disabled={!running || status.isFetching}
          onClick={() => void status.refetch()}
        >
          Refresh git status
        </Button>
      </div>
      {status.error === null ? null : <p role="alert">{status.error.message}</p>}
      {status.data?.repositories.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">The project has no repository.</p>
      ) : null}
      {status.data?.repositories.map((repository) => (
        <div key={repository.path} className="flex flex-col gap-1">
          <h3 className="font-medium">
            <code>{repository.path}</code>
          </h3>
          <p className="text-sm">
            On {repository.branch ?? 'a detached commit'}
            {repository.commit ? ` at ${repository.commit.slice(0, 8)}` : ''}
            {repository.upstream
              ? `; ${repository.ahead} ahead, ${repository.behind} behind ${repository.upstream}`
              : '; no upstream'}
            {repository.clean ? '; clean.' : `; ${repository.files.length} changed files:`}
          </p>
          {repository.files.length === 0 ? null : (
            <ul aria-label={`Changed files in ${repository.path}`} className="font-mono text-sm">
              {repository.files.map((file) => (
                <li key={file.path}>
                  <span aria-hidden="true">
                    {file.index}
                    {file.workTree}
                  </span>
                  <span className="sr-only">{changeWords(file.index, file.workTree)}</span>{' '}
                  {file.originalPath ? `${file.originalPath} → ` : ''}
                  {file.path}
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </section>
  );
}
