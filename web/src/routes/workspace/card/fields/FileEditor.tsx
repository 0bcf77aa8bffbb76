import { useMutation, useQuery } from '@tanstack/react-query';
import { refusalOf } from '../../../../api/errors.js';
import { fileContentUrl, fileQuery, uploadFile } from '../../../../api/files.js';
import { asString, type EditorProps, SMALL_BUTTON } from './types.js';

/** A file of the workspace: its name (a link to it), upload another, remove it. */
export function FileEditor({
  workspaceId,
  field,
  id,
  value,
  onChange,
  disabled,
}: EditorProps & { workspaceId: string }) {
  const fileId = asString(value);
  const file = useQuery({ ...fileQuery(workspaceId, fileId), enabled: fileId !== '' });
  const upload = useMutation({
    mutationFn: (chosen: File) => uploadFile(workspaceId, chosen),
    onSuccess: (stored) => onChange(stored.id),
  });
  return (
    <div className="flex flex-col gap-1 text-sm">
      {fileId === '' ? null : (
        <div className="flex items-center gap-2">
          <a
            className="truncate text-blue-700 underline dark:text-blue-300"
            href={fileContentUrl(workspaceId, fileId)}
            target="_blank"
            rel="noreferrer"
          >
            {file.data?.name ?? 'File'}
          </a>
          {disabled ? null : (
            <button
              type="button"
              className={SMALL_BUTTON}
              aria-label={`Remove the file of ${field.name}`}
              onClick={() => onChange(null)}
            >
              Remove
            </button>
          )}
        </div>
      )}
      {disabled ? null : (
        <input
          id={id}
          type="file"
          className="text-xs file:mr-2 file:rounded file:border file:border-zinc-300 file:bg-transparent file:px-2 file:py-1 file:text-zinc-800 focus-visible:outline-2 focus-visible:outline-blue-600 dark:file:border-zinc-600 dark:file:text-zinc-100"
          disabled={upload.isPending}
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            if (chosen !== undefined) upload.mutate(chosen);
            event.target.value = '';
          }}
        />
      )}
      {upload.isPending ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">Uploading…</p>
      ) : null}
      {upload.isError ? (
        <p className="text-xs text-red-700 dark:text-red-300">{refusalOf(upload.error).message}</p>
      ) : null}
    </div>
  );
}
