import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

export type StoredFile = components['schemas']['File'];

/** A file's metadata (its name for a file field). */
export const fileQuery = (workspaceId: string, fileId: string) =>
  queryOptions({
    queryKey: keys.inWorkspace(workspaceId, 'file', fileId),
    queryFn: () =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/files/{fileId}', {
          params: { path: { workspaceId, fileId } },
        }),
      ),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Where the browser reads a file's bytes (same origin: the session cookie goes with it). */
export function fileContentUrl(workspaceId: string, fileId: string): string {
  return `/workspaces/${workspaceId}/files/${fileId}/content`;
}

/** Uploads one file as multipart form data; answers the stored file. */
export function uploadFile(workspaceId: string, file: File): Promise<StoredFile> {
  return unwrap(
    api.POST('/workspaces/{workspaceId}/files', {
      params: { path: { workspaceId } },
      body: { file: '' },
      bodySerializer: () => {
        const form = new FormData();
        form.append('file', file);
        return form;
      },
    }),
  );
}

/** Deletes a file and its bytes. */
export function deleteFile(workspaceId: string, fileId: string): Promise<unknown> {
  return unwrap(
    api.DELETE('/workspaces/{workspaceId}/files/{fileId}', {
      params: { path: { workspaceId, fileId } },
    }),
  );
}
