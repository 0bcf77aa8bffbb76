import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredObject {
  size: number;
  sha256: string;
  /** The first bytes, for sniffing the type. */
  head: Buffer;
}

/**
 * Where file bytes live. The local folder is the default; an S3-compatible
 * store implements the same four operations.
 */
export interface FileStorage {
  write(key: string, source: Readable): Promise<StoredObject>;
  read(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix/`. */
  removeAll(prefix: string): Promise<void>;
}

const HEAD_BYTES = 4096;
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9/_-]*$/;

function checkKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..') || key.includes('//')) {
    throw new Error(`unsafe storage key: ${key}`);
  }
  return key;
}

/** Measures, hashes and keeps the first bytes of a stream passing through. */
function observer() {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      if (headSize < HEAD_BYTES) {
        head.push(chunk.subarray(0, HEAD_BYTES - headSize));
        headSize += Math.min(chunk.length, HEAD_BYTES - headSize);
      }
      done(null, chunk);
    },
  });
  return {
    transform,
    result: (): StoredObject => ({ size, sha256: hash.digest('hex'), head: Buffer.concat(head) }),
  };
}

export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    return join(this.root, checkKey(key));
  }

  async write(key: string, source: Readable): Promise<StoredObject> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const observed = observer();
    try {
      await pipeline(source, observed.transform, createWriteStream(path, { flags: 'wx' }));
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return observed.result();
  }

  async read(key: string): Promise<Readable> {
    const path = this.path(key);
    await stat(path);
    return createReadStream(path);
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async removeAll(prefix: string): Promise<void> {
    await rm(this.path(prefix), { recursive: true, force: true });
  }
}
