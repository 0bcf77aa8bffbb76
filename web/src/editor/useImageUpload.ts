import type { Editor, EditorEvents } from '@tiptap/react';
import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../api/client.js';
import { refusalOf } from '../api/errors.js';
import {
  notImagesMessage,
  notShownMessage,
  sizeInWords,
  sortImageFiles,
  uploadFailedMessage,
} from './image-files.js';

/** How the editor stores an image: given by the screen that mounts it (the workspace's files API). */
export interface ImageUploads {
  /** Uploads the file; answers its id and whether the server found it to be an image. */
  upload: (file: File) => Promise<{ id: string; isImage: boolean }>;
  /** Deletes a file uploaded for nothing (the server did not find an image in it). */
  discard: (fileId: string) => Promise<unknown>;
}

/** A refused upload's reason in words (the size limit in megabytes, not bytes). */
function reasonOf(error: unknown): string {
  if (error instanceof ApiError && error.code === 'payload_too_large') {
    const details: unknown = error.details;
    if (typeof details === 'object' && details !== null && 'maxBytes' in details) {
      if (typeof details.maxBytes === 'number') {
        return `it is larger than the ${sizeInWords(details.maxBytes)} a file may be`;
      }
    }
    return 'it is larger than the server accepts';
  }
  return refusalOf(error).message;
}

/**
 * A position in the document kept up to date with every change made while
 * an upload runs, so the image lands where it was asked for even if the
 * person typed above it in the meantime.
 */
function trackPosition(editor: Editor, start: number) {
  let position = start;
  const follow = ({ transaction }: EditorEvents['transaction']) => {
    position = transaction.mapping.map(position);
  };
  editor.on('transaction', follow);
  return {
    current: () => Math.min(Math.max(position, 0), editor.state.doc.content.size),
    moveTo: (next: number) => {
      position = next;
    },
    stop: () => editor.off('transaction', follow),
  };
}

/** Where the image block of the file ends (it is placed between blocks, not always at the position asked). */
function endOfImage(editor: Editor, fileId: string): number | undefined {
  let end: number | undefined;
  editor.state.doc.forEach((node, offset) => {
    if (node.type.name === 'image' && node.attrs.fileId === fileId) end = offset + node.nodeSize;
  });
  return end;
}

/**
 * Inserts the image block at the tracked position and moves that past it
 * (the next image of the same choice goes after it). The cursor follows
 * only when it was at that position or the editor takes the focus (the
 * person may be typing elsewhere); it goes in the text after the image (a
 * paragraph is added when none follows), never on the image, where typing
 * would replace it.
 */
function insertImage(
  editor: Editor,
  position: ReturnType<typeof trackPosition>,
  fileId: string,
  focus: boolean,
): void {
  const at = position.current();
  const { selection } = editor.state;
  const cursorThere = selection.empty && selection.from === at;
  editor.commands.insertContentAt(
    at,
    { type: 'image', attrs: { fileId, caption: null, blockId: null } },
    { updateSelection: false },
  );
  const after = endOfImage(editor, fileId);
  if (after === undefined) return;
  position.moveTo(after);
  if (!focus && !cursorThere) return;
  const chain = editor.chain();
  if (editor.state.doc.resolve(after).nodeAfter?.isTextblock) chain.setTextSelection(after + 1);
  else chain.insertContentAt(after, { type: 'paragraph' }).setTextSelection(after + 1);
  (focus ? chain.focus() : chain).run();
}

/**
 * Uploads images and inserts each as an image block once stored: refuses
 * other files before upload and says why an upload failed. The document is
 * changed only by the insertion, so nothing typed is lost when one fails.
 */
export function useImageUpload(
  editor: Editor | null,
  uploads: ImageUploads,
  /** Whether the editor should take the focus after inserting (the person is not elsewhere). */
  shouldFocus: () => boolean,
) {
  const [uploading, setUploading] = useState(0);
  const [error, setError] = useState<string | undefined>(undefined);
  const latest = useRef({ uploads, shouldFocus });
  latest.current = { uploads, shouldFocus };

  const insertFiles = useCallback(
    async (files: readonly File[], at?: number) => {
      if (editor === null || !editor.isEditable) return;
      const { images, refused } = sortImageFiles(files);
      setError(notImagesMessage(refused));
      if (images.length === 0) return;
      const position = trackPosition(editor, at ?? editor.state.selection.to);
      setUploading((count) => count + images.length);
      const failures: string[] = [];
      try {
        for (const file of images) {
          try {
            const stored = await latest.current.uploads.upload(file);
            if (!stored.isImage) {
              failures.push(notShownMessage(file));
              void latest.current.uploads.discard(stored.id).catch(() => undefined);
            } else if (!editor.isDestroyed) {
              insertImage(editor, position, stored.id, latest.current.shouldFocus());
            }
          } catch (failure) {
            failures.push(uploadFailedMessage(file, reasonOf(failure)));
          } finally {
            setUploading((count) => count - 1);
          }
        }
      } finally {
        position.stop();
      }
      if (failures.length > 0) {
        setError((previous) => [previous, ...failures].filter(Boolean).join(' '));
      }
    },
    [editor],
  );

  return { uploading: uploading > 0, error, insertFiles, dismissError: () => setError(undefined) };
}
