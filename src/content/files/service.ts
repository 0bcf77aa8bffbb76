import type { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import type { FileMetadata } from './schemas.js';
import { sniff } from './sniff.js';
import { type FileStorage, LocalFileStorage } from './storage.js';

/** The storage driver of an app's configuration (the local folder `FILES_DIR`), built with the app. */
export function createFileStorage(config: Config): FileStorage {
  return new LocalFileStorage(config.filesDir);
}

interface FileRow {
  id: string;
  name: string;
  content_type: string;
  is_image: boolean;
  size: number;
  sha256: string;
  storage_key: string;
  created_by: string | null;
  created_at: Date;
}

const columns = [
  'id',
  'name',
  'content_type',
  'is_image',
  'size',
  'sha256',
  'storage_key',
  'created_by',
  'created_at',
] as const;

function toMetadata(row: FileRow): FileMetadata {
  return {
    id: row.id,
    name: row.name,
    contentType: row.content_type,
    isImage: row.is_image,
    size: Number(row.size),
    sha256: row.sha256,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
  };
}

/** Keeps a readable, safe file name: no path, no control characters, at most 255 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code >= 0x20 && code !== 0x7f;
  });
  const cleaned = printable.join('').trim().slice(0, 255);
  return cleaned === '' ? 'file' : cleaned;
}

/** Stores the bytes, then records the file; bytes are removed again if recording fails. */
export async function uploadFile(
  db: Database,
  storage: FileStorage,
  access: WorkspaceAccess,
  upload: {
    filename: string | undefined;
    /** Fails (an AppError) when the upload is cut short or over `maxBytes`. */
    stream: Readable;
    maxBytes: number;
  },
): Promise<FileMetadata> {
  const id = newId();
  const storageKey = `${access.workspaceId}/${id}`;
  const stored = await storage.write(storageKey, upload.stream);
  if (stored.size > upload.maxBytes) {
    await storage.remove(storageKey);
    throw new AppError('payload_too_large', `Files are limited to ${upload.maxBytes} bytes`, {
      maxBytes: upload.maxBytes,
    });
  }
  const sniffed = sniff(stored.head);
  try {
    const row = await inTransaction(db, (trx) =>
      trx
        .insertInto('files')
        .values({
          id,
          workspace_id: access.workspaceId,
          name: cleanFileName(upload.filename),
          content_type: sniffed.contentType,
          is_image: sniffed.isImage,
          size: stored.size,
          sha256: stored.sha256,
          storage_key: storageKey,
          created_by: access.userId,
        })
        .returning(columns)
        .executeTakeFirstOrThrow(),
    );
    return toMetadata(row);
  } catch (error) {
    await storage.remove(storageKey);
    throw error;
  }
}

async function findRow(
  db: Database,
  workspaceId: string,
  fileId: string,
): Promise<FileRow | undefined> {
  return db
    .selectFrom('files')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', fileId)
    .executeTakeFirst();
}

export async function getFile(
  db: Database,
  workspaceId: string,
  fileId: string,
): Promise<FileMetadata> {
  const row = await findRow(db, workspaceId, fileId);
  if (row === undefined) throw notFound('File');
  return toMetadata(row);
}

export async function listFiles(db: Database, workspaceId: string): Promise<FileMetadata[]> {
  const rows = await db
    .selectFrom('files')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
  return rows.map(toMetadata);
}

export async function openFile(
  db: Database,
  storage: FileStorage,
  workspaceId: string,
  fileId: string,
): Promise<{ file: FileMetadata; stream: Readable }> {
  const row = await findRow(db, workspaceId, fileId);
  if (row === undefined) throw notFound('File');
  return { file: toMetadata(row), stream: await storage.read(row.storage_key) };
}

/** Deletes the record, then the bytes. References to the file from items become dangling. */
export async function deleteFile(
  db: Database,
  storage: FileStorage,
  workspaceId: string,
  fileId: string,
): Promise<void> {
  const row = await db
    .deleteFrom('files')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', fileId)
    .returning('storage_key')
    .executeTakeFirst();
  if (row === undefined) throw notFound('File');
  await storage.remove(row.storage_key);
}

/** Throws 400 unless the file is an image of the workspace (avatars, image blocks). */
export async function requireImage(
  db: Database,
  workspaceId: string,
  fileId: string,
): Promise<void> {
  const row = await findRow(db, workspaceId, fileId);
  if (row === undefined)
    throw badRequest('unknown_file', 'The file is not a file of this workspace', { fileId });
  if (!row.is_image)
    throw badRequest('not_an_image', 'The file is not an image (PNG, JPEG, GIF or WebP)', {
      fileId,
    });
}

/** The subset of these ids that are files (or, with `imagesOnly`, image files) of the workspace. */
export async function existingFileIds(
  db: Database,
  workspaceId: string,
  fileIds: readonly string[],
  imagesOnly = false,
): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('files')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...fileIds])
    .$if(imagesOnly, (query) => query.where('is_image', '=', true))
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Removes the bytes of every file of a deleted workspace. */
export async function removeWorkspaceFiles(
  storage: FileStorage,
  workspaceId: string,
): Promise<void> {
  await storage.removeAll(workspaceId);
}
