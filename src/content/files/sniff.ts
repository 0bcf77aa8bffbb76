/**
 * The content type of a file, from its first bytes; what the client claims is
 * never trusted. Raster images are the only types shown inline.
 */
export interface Sniffed {
  contentType: string;
  isImage: boolean;
}

const SIGNATURES: Array<{ type: string; image: boolean; test: (head: Buffer) => boolean }> = [
  {
    type: 'image/png',
    image: true,
    test: (h) =>
      h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    type: 'image/jpeg',
    image: true,
    test: (h) => h.length >= 3 && h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  },
  {
    type: 'image/gif',
    image: true,
    test: (h) => ['GIF87a', 'GIF89a'].includes(h.subarray(0, 6).toString('latin1')),
  },
  {
    type: 'image/webp',
    image: true,
    test: (h) =>
      h.subarray(0, 4).toString('latin1') === 'RIFF' &&
      h.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  {
    type: 'application/pdf',
    image: false,
    test: (h) => h.subarray(0, 5).toString('latin1') === '%PDF-',
  },
  {
    type: 'application/zip',
    image: false,
    test: (h) => h.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
  },
  {
    type: 'application/gzip',
    image: false,
    test: (h) => h.length >= 2 && h[0] === 0x1f && h[1] === 0x8b,
  },
  { type: 'video/mp4', image: false, test: (h) => h.subarray(4, 8).toString('latin1') === 'ftyp' },
];

function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  // A multi-byte character may be cut at the end of the head: drop up to 3 trailing bytes.
  for (let cut = 0; cut <= Math.min(3, head.length); cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      // try a shorter prefix
    }
  }
  return false;
}

export function sniff(head: Buffer): Sniffed {
  for (const signature of SIGNATURES) {
    if (signature.test(head)) return { contentType: signature.type, isImage: signature.image };
  }
  if (head.length > 0 && looksLikeText(head))
    return { contentType: 'text/plain; charset=utf-8', isImage: false };
  return { contentType: 'application/octet-stream', isImage: false };
}
