import type { ReplicaRow } from './replicas.js';

/**
 * How a replica is named in logs: `r{n}` its place among the service's
 * live replicas (oldest first, from 1) and the last six hex digits of its id,
 * which stay the same while it lives (`?replica=` of the shell takes them).
 */
export function replicaLabel(replica: ReplicaRow, index: number): string {
  return `r${index + 1} ${shortReplicaId(replica.id)}`;
}

export function shortReplicaId(id: string): string {
  return id.replace(/-/g, '').slice(-6).toLowerCase();
}

const NEWLINE = 0x0a;

/**
 * Puts `[label] ` at the start of every line of a stream of bytes, whatever
 * the chunks it comes in: a line cut across two chunks gets one prefix.
 */
export class LinePrefixer {
  private atLineStart = true;
  private readonly prefix: Buffer;

  constructor(label: string) {
    this.prefix = Buffer.from(`[${label}] `);
  }

  apply(bytes: Buffer): Buffer {
    const parts: Buffer[] = [];
    let start = 0;
    while (start < bytes.length) {
      const end = bytes.indexOf(NEWLINE, start);
      if (this.atLineStart) parts.push(this.prefix);
      if (end === -1) {
        parts.push(bytes.subarray(start));
        this.atLineStart = false;
        break;
      }
      parts.push(bytes.subarray(start, end + 1));
      this.atLineStart = true;
      start = end + 1;
    }
    return Buffer.concat(parts);
  }
}

/** A whole text with every line prefixed, ending with a newline when it has any line. */
export function prefixLines(label: string, text: string): string {
  if (text === '') return '';
  const prefixed = new LinePrefixer(label).apply(Buffer.from(text)).toString('utf8');
  return prefixed.endsWith('\n') ? prefixed : `${prefixed}\n`;
}
