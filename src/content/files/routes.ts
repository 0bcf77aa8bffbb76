import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler } from 'fastify';
import Type from 'typebox';
import { requirePrincipal } from '../../http/auth.js';
import { badRequest } from '../../http/errors.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { validatorCompiler } from '../../http/validation.js';
import type { AppContext, Router } from '../../module.js';
import { authorizeWorkspace } from '../access/authorize.js';
import { readInWorkspace } from '../access/scope.js';
import { FileMetadata } from './schemas.js';
import * as service from './service.js';

const tags = ['Files'];
const WorkspaceParams = IdParams('workspaceId');
const FileParams = IdParams('workspaceId', 'fileId');

/** The multipart body is read as a stream by the handler; its schema only documents it. */
const multipartValidator: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route);

/** `attachment; filename="..."` with an ASCII fallback and the exact UTF-8 name (RFC 6266). */
function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function fileRoutes(router: Router, ctx: AppContext): void {
  const storage = service.fileStorage(ctx.config);

  router.register(async (instance) => {
    const scoped = instance.withTypeProvider<TypeBoxTypeProvider>();
    await scoped.register(multipart, {
      limits: { fileSize: ctx.config.maxUploadBytes, files: 1, fields: 0, parts: 1 },
      throwFileSizeLimit: true,
    });
    scoped.post('/workspaces/:workspaceId/files', {
      config: { access: 'authenticated' },
      validatorCompiler: multipartValidator,
      schema: {
        tags,
        operationId: 'uploadFile',
        summary: 'Upload a file (multipart/form-data, one part named `file`)',
        description:
          `The type is sniffed from the bytes. Larger than \`MAX_UPLOAD_BYTES\` (${ctx.config.maxUploadBytes} bytes here): 413 \`payload_too_large\`. ` +
          'Files are used by `file` properties, image blocks and member avatars.',
        consumes: ['multipart/form-data'],
        params: WorkspaceParams,
        body: Type.Object({ file: Type.String({ format: 'binary' }) }),
        response: { 201: FileMetadata },
      },
      handler: async (request, reply) => {
        const access = await authorizeWorkspace(
          ctx.db,
          requirePrincipal(request),
          request.params.workspaceId,
          'files.write',
        );
        if (!request.isMultipart()) {
          throw badRequest(
            'multipart_required',
            'Send the file as multipart/form-data in a part named "file"',
          );
        }
        const part = await request.file();
        if (part === undefined || part.fieldname !== 'file') {
          throw badRequest('file_missing', 'The multipart body has no part named "file"');
        }
        const file = await service.uploadFile(ctx.db, storage, access, {
          filename: part.filename,
          stream: part.file,
          maxBytes: ctx.config.maxUploadBytes,
        });
        return reply.code(201).send(file);
      },
    });
  });

  router.get('/workspaces/:workspaceId/files', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listFiles',
      summary: 'The workspace files, newest first (at most 1000)',
      params: WorkspaceParams,
      response: { 200: Type.Array(FileMetadata) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'files.read', (db, access) =>
        service.listFiles(db, access.workspaceId),
      ),
  });

  router.get('/workspaces/:workspaceId/files/:fileId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getFile',
      summary: 'A file’s metadata',
      params: FileParams,
      response: { 200: FileMetadata },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'files.read', (db, access) =>
        service.getFile(db, access.workspaceId, request.params.fileId),
      ),
  });

  router.get('/workspaces/:workspaceId/files/:fileId/content', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'downloadFile',
      summary: 'A file’s bytes',
      description:
        'Served with the sniffed type, `X-Content-Type-Options: nosniff` and a sandboxing CSP; images inline, other files as attachments.',
      produces: ['application/octet-stream'],
      params: FileParams,
      response: { 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) },
    },
    handler: async (request, reply) => {
      const { file, stream } = await readInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'files.read',
        (db, access) => service.openFile(db, storage, access.workspaceId, request.params.fileId),
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

  router.delete('/workspaces/:workspaceId/files/:fileId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteFile',
      summary: 'Delete a file and its bytes',
      description:
        'Properties, image blocks and avatars that cite it are left as they are and show a missing file.',
      params: FileParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await readInWorkspace(ctx, request, request.params.workspaceId, 'files.write', (db, access) =>
        service.deleteFile(db, storage, access.workspaceId, request.params.fileId),
      );
      return reply.code(204).send(null);
    },
  });
}
