import { createHash } from 'node:crypto';
import type { Database } from '../../db/schema.js';
import { type StoredKeys, writeFilesByPair } from '../files/pairs.js';
import type { FileStorage } from '../files/storage.js';
import { checkUnique, type PairedImport, pairedImport, refuseRow } from './rows.js';
import type { ImportFile } from './schemas.js';

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

/** Creates or replaces files by their external pair, through the files module. */
export async function importFiles(
  db: Database,
  storage: FileStorage,
  owner: { workspaceId: string; userId: string },
  files: readonly DecodedFile[],
  keys: StoredKeys,
): Promise<PairedImport> {
  if (files.length === 0) return pairedImport([], []);
  const paired = files.map(({ row, bytes, sha256 }) => ({
    externalSource: row.externalSource,
    externalId: row.externalId,
    name: row.name,
    bytes,
    sha256,
  }));
  const written = await writeFilesByPair(db, storage, owner, paired, keys, (index, code, reason) =>
    refuseRow('files', index, code, reason),
  );
  return pairedImport(paired, written);
}
