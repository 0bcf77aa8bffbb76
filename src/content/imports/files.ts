import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { cleanFileName } from '../files/service.js';
import { sniff } from '../files/sniff.js';
import type { FileStorage } from '../files/storage.js';
import { checkUnique, pairKey, refuseRow } from './rows.js';
import type { ImportFile, Outcome } from './schemas.js';

export interface DecodedFile {
  row: ImportFile;
  bytes: Buffer;
  sha256: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes and checks the files before any transaction opens. */
export function decodeFiles(rows: readonly ImportFile[], maxBytes: number): DecodedFile[] {
  checkUnique('files', rows);
  return rows.map((row, index) => {
    const text = row.contentBase64.replace(/\s+/g, '');
    if (!BASE64.test(text) || text.length % 4 === 1) {
      throw refuseRow('files', index, 'invalid_base64', 'contentBase64 is not base64');
    }
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length > maxBytes) {
      throw refuseRow('files', index, 'file_too_large', `Files are limited to ${maxBytes} bytes`, {
        maxBytes,
      });
    }
    return { row, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  });
}

/** What the file step did outside the database, to undo or finish after the transaction. */
export interface StoredKeys {
  /** Bytes written by this request: removed if the transaction does not commit. */
  written: string[];
  /** Bytes replaced by this request: removed once it has committed. */
  replaced: string[];
}

export interface FileImport {
  outcomes: Outcome[];
  ids: Map<string, string>;
}

/**
 * Creates or replaces files by their external pair. Same name and bytes
 * (SHA-256) count as unchanged and write nothing. Files have no event type in
 * the closed list, so they are not logged.
 */
export async function importFiles(
  db: Database,
  storage: FileStorage,
  workspaceId: string,
  userId: string,
  files: readonly DecodedFile[],
  keys: StoredKeys,
): Promise<FileImport> {
  const result: FileImport = { outcomes: [], ids: new Map() };
  if (files.length === 0) return result;
  const existing = await db
    .selectFrom('files')
    .select(['id', 'name', 'sha256', 'storage_key', 'external_source', 'external_id'])
    .where('workspace_id', '=', workspaceId)
    .where('external_source', 'in', [...new Set(files.map((file) => file.row.externalSource))])
    .where(
      'external_id',
      'in',
      files.map((file) => file.row.externalId),
    )
    .forUpdate()
    .execute();
  const byPair = new Map(
    existing.map((row) => [pairKey(row.external_source ?? '', row.external_id ?? ''), row]),
  );
  for (const [index, file] of files.entries()) {
    const key = pairKey(file.row.externalSource, file.row.externalId);
    const current = byPair.get(key);
    const name = cleanFileName(file.row.name);
    const id = current?.id ?? newId();
    result.ids.set(key, id);
    const outcome = (kind: Outcome['outcome']): Outcome => ({
      externalSource: file.row.externalSource,
      externalId: file.row.externalId,
      id,
      outcome: kind,
    });
    if (current !== undefined && current.sha256 === file.sha256 && current.name === name) {
      result.outcomes.push(outcome('unchanged'));
      continue;
    }
    const storageKey = `${workspaceId}/${newId()}`;
    const stored = await storage.write(storageKey, Readable.from(file.bytes));
    keys.written.push(storageKey);
    if (stored.sha256 !== file.sha256) {
      throw refuseRow(
        'files',
        index,
        'storage_mismatch',
        'The stored bytes differ from the sent ones',
      );
    }
    const sniffed = sniff(stored.head);
    const values = {
      name,
      content_type: sniffed.contentType,
      is_image: sniffed.isImage,
      size: stored.size,
      sha256: stored.sha256,
      storage_key: storageKey,
    };
    if (current === undefined) {
      await db
        .insertInto('files')
        .values({
          id,
          workspace_id: workspaceId,
          created_by: userId,
          external_source: file.row.externalSource,
          external_id: file.row.externalId,
          ...values,
        })
        .execute();
      result.outcomes.push(outcome('created'));
    } else {
      await db.updateTable('files').set(values).where('id', '=', id).execute();
      keys.replaced.push(current.storage_key);
      result.outcomes.push(outcome('updated'));
    }
  }
  return result;
}
