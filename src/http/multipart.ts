import { PassThrough, type Readable } from 'node:stream';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.js';
import { refuseNul } from './nul.js';

export interface UploadedFile {
  /** The name the client gave, as sent (NUL characters refused). */
  filename: string;
  /** The bytes; it fails with an AppError when the body is cut short or the file is too large. */
  stream: Readable;
}

const BOUNDARY = /;\s*boundary\s*=\s*(?:"[^"]+"|[^\s;"]+)/i;

function cutShort(): AppError {
  return badRequest('invalid_multipart', 'The multipart body ends before its closing boundary');
}

/** Errors of the multipart parser without a code of their own are malformed bodies. */
function asClientError(error: unknown): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  if ('code' in error && typeof error.code === 'string' && error.code.startsWith('FST_')) {
    return error;
  }
  return badRequest('invalid_multipart', `The multipart body is malformed: ${error.message}`);
}

/**
 * The part's bytes, passed on through a stream that fails instead of
 * hanging or ending quietly: a part cut short (the body ends before its
 * closing boundary) and a file over `maxBytes` fail the stream, so the
 * storage write that reads it fails and removes what it wrote.
 */
function guarded(file: Readable & { truncated: boolean }, maxBytes: number): Readable {
  const out = new PassThrough();
  // Its reader learns of the failure from the stream's state, even if it attaches after it.
  out.on('error', () => {});
  const fail = (error: AppError) => {
    file.unpipe(out);
    out.destroy(error);
  };
  file.on('error', () => fail(cutShort()));
  file.on('close', () => {
    if (!file.readableEnded) fail(cutShort());
  });
  const tooLarge = () =>
    new AppError('payload_too_large', `Files are limited to ${maxBytes} bytes`, { maxBytes });
  file.on('limit', () => fail(tooLarge()));
  // The parser may have read the whole body before the handler asked for the part: a file
  // cut at the limit, or a part cut short and closed with its data unread (piping it would
  // wait for ever).
  if (file.truncated) fail(tooLarge());
  else if (file.destroyed) fail(cutShort());
  else file.pipe(out);
  return out;
}

/**
 * Reads the one file of a multipart/form-data upload, in a part named
 * `field`, for routes that register @fastify/multipart. Every malformed body
 * is a 400: not multipart, no boundary, no such part, a NUL character in
 * the part's names, a body cut short.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  options: { field: string; maxBytes: number },
): Promise<UploadedFile> {
  if (!request.isMultipart()) {
    throw badRequest(
      'multipart_required',
      `Send the file as multipart/form-data in a part named "${options.field}"`,
    );
  }
  if (!BOUNDARY.test(request.headers['content-type'] ?? '')) {
    throw badRequest('invalid_multipart', 'The multipart/form-data Content-Type names no boundary');
  }
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await request.file();
  } catch (error) {
    throw asClientError(error);
  }
  const missing = () =>
    badRequest('file_missing', `The multipart body has no part named "${options.field}"`);
  if (part === undefined) throw missing();
  try {
    refuseNul(part.fieldname, 'part name');
    refuseNul(part.filename, 'file name');
    if (part.fieldname !== options.field) throw missing();
  } catch (error) {
    // The refused part's bytes are read and dropped, not left to block the body.
    part.file.resume();
    throw error;
  }
  return { filename: part.filename, stream: guarded(part.file, options.maxBytes) };
}
