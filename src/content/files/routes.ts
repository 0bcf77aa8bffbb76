import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler } from 'fastify';
import Type from 'typebox';
import { readUploadedFile } from '../../http/multipart.js';
import { NoContent } from '../../http/schemas.js';
import { validatorCompiler } from '../../http/validation.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { FileMetadata } from './schemas.js';
import * as service from './service.js';

const tags = ['Files'];

/** The multipart body is read as a stream by the handler; its schema only documents it. */
const multipartValidator: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route);

/** `attachment; filename="..."` with an ASCII fallback and the exact UTF-8 name (RFC 6266). */
function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function fileRoutes(router: Router, ctx: AppContext): void {
  const storage = ctx.files;
  const read = { action: 'files.read', app: ['files:read'] } as const;
  const write = { action: 'files.write', app: ['files:write'] } as const;

  router.register(async (instance) => {
    const scoped = instance.withTypeProvider<TypeBoxTypeProvider>();
    await scoped.register(multipart, {
      limits: { fileSize: ctx.config.maxUploadBytes, files: 1, fields: 0, parts: 1 },
      throwFileSizeLimit: true,
    });
    workspaceRoutes(scoped, ctx, tags).route({
      ...write,
      method: 'POST',
      url: '/workspaces/:workspaceId/files',
      // The bytes stream to storage first; the service records the file after.
      transaction: false,
      options: { validatorCompiler: multipartValidator },
      operationId: 'uploadFile',
      summary: 'Upload a file (multipart/form-data, one part named `file`)',
      description:
        `The type is sniffed from the bytes. At most \`MAX_UPLOAD_BYTES\` (${ctx.config.maxUploadBytes} bytes here). ` +
        'Files are used by `file` properties, image blocks and member avatars.',
      consumes: ['multipart/form-data'],
      body: Type.Object({ file: Type.String({ format: 'binary' }) }),
      response: FileMetadata,
      status: 201,
      errors: [
        'multipart_required',
        'invalid_multipart',
        'file_missing',
        'nul_character',
        'payload_too_large',
      ],
      handler: async (db, access, request) => {
        const maxBytes = ctx.config.maxUploadBytes;
        const upload = await readUploadedFile(request, { field: 'file', maxBytes });
        return service.uploadFile(db, storage, access, { ...upload, maxBytes });
      },
    });
  });

  const { route } = workspaceRoutes(router, ctx, tags);

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/files',
    operationId: 'listFiles',
    summary: 'The workspace files, newest first (at most 1000)',
    response: Type.Array(FileMetadata),
    handler: (db, access) => service.listFiles(db, access.workspaceId),
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/files/:fileId',
    operationId: 'getFile',
    summary: 'A file’s metadata',
    response: FileMetadata,
    handler: (db, access, request) =>
      service.getFile(db, access.workspaceId, request.params.fileId),
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/files/:fileId/content',
    operationId: 'downloadFile',
    summary: 'A file’s bytes',
    description:
      'Served with the sniffed type, `X-Content-Type-Options: nosniff` and a sandboxing CSP; images inline, other files as attachments.',
    produces: ['application/octet-stream'],
    response: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }),
    handler: async (db, access, request, reply) => {
      const { file, stream } = await service.openFile(
        db,
        storage,
        access.workspaceId,
        request.params.fileId,
      );
      return reply
        .type(file.contentType)
        .header('content-length', file.size)
        .header(
          'content-disposition',
          contentDisposition(file.isImage ? 'inline' : 'attachment', file.name),
        )
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'")
        .send(stream);
    },
  });

  route({
    ...write,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/files/:fileId',
    // The row and the bytes go together; the service orders the two itself.
    transaction: false,
    operationId: 'deleteFile',
    summary: 'Delete a file and its bytes',
    description:
      'Properties, image blocks and avatars that cite it are left as they are and show a missing file.',
    response: NoContent,
    handler: (db, access, request) =>
      service.deleteFile(db, storage, access.workspaceId, request.params.fileId),
  });
}
