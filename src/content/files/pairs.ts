import { Readable } from 'node:stream';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { cleanFileName } from './service.js';
import { sniff } from './sniff.js';
import type { FileStorage } from './storage.js';

/** A file as another system names it: by its external pair (imports), with its bytes. */
export interface PairedFile {
  externalSource: string;
  externalId: string;
  name: string;
  bytes: Buffer;
  /** The SHA-256 of `bytes`, hex. */
  sha256: string;
}

/** What the writes did outside the database, to undo or finish after the transaction. */
export interface StoredKeys {
  /** Bytes written by this request: removed if the transaction does not commit. */
  written: string[];
  /** Bytes replaced by this request: removed once it has committed. */
  replaced: string[];
}

/** What became of one file: its id and whether it was written. */
export interface PairedOutcome {
  id: string;
  outcome: 'created' | 'updated' | 'unchanged';
}

/** How the caller refuses a row of its batch; the error thrown ends the whole batch. */
export type RefuseRow = (index: number, code: string, reason: string) => Error;

function pairOf(source: string | null, id: string | null): string {
  return JSON.stringify([source ?? '', id ?? '']);
}

/**
 * Creates or replaces files by their external pair, in row order. Same name
 * and bytes (SHA-256) count as unchanged and write nothing. Files have no
 * event type in the closed list, so they are not logged. The caller has
 * checked that no pair appears twice.
 */
export async function writeFilesByPair(
  db: Database,
  storage: FileStorage,
  owner: { workspaceId: string; userId: string },
  files: readonly PairedFile[],
  keys: StoredKeys,
  refuse: RefuseRow,
): Promise<PairedOutcome[]> {
  if (files.length === 0) return [];
  const { workspaceId } = owner;
  const existing = await db
    .selectFrom('files')
    .select(['id', 'name', 'sha256', 'storage_key', 'external_source', 'external_id'])
    .where('workspace_id', '=', workspaceId)
    .where('external_source', 'in', [...new Set(files.map((file) => file.externalSource))])
    .where(
      'external_id',
      'in',
      files.map((file) => file.externalId),
    )
    .forUpdate()
    .execute();
  const byPair = new Map(
    existing.map((row) => [pairOf(row.external_source, row.external_id), row]),
  );
  const outcomes: PairedOutcome[] = [];
  for (const [index, file] of files.entries()) {
    const current = byPair.get(pairOf(file.externalSource, file.externalId));
    const name = cleanFileName(file.name);
    const id = current?.id ?? newId();
    if (current !== undefined && current.sha256 === file.sha256 && current.name === name) {
      outcomes.push({ id, outcome: 'unchanged' });
      continue;
    }
    const storageKey = `${workspaceId}/${newId()}`;
    const stored = await storage.write(storageKey, Readable.from(file.bytes));
    keys.written.push(storageKey);
    if (stored.sha256 !== file.sha256) {
      throw refuse(index, 'storage_mismatch', 'The stored bytes differ from the sent ones');
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
          created_by: owner.userId,
          external_source: file.externalSource,
          external_id: file.externalId,
          ...values,
        })
        .execute();
      outcomes.push({ id, outcome: 'created' });
    } else {
      await db.updateTable('files').set(values).where('id', '=', id).execute();
      keys.replaced.push(current.storage_key);
      outcomes.push({ id, outcome: 'updated' });
    }
  }
  return outcomes;
}
