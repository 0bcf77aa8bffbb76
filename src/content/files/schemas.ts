import Type, { type Static } from 'typebox';
import { Timestamp, Uuid } from '../../http/schemas.js';

export const FileMetadata = Type.Object(
  {
    id: Uuid,
    name: Type.String({ description: 'The uploaded file name.' }),
    contentType: Type.String({
      description: 'Sniffed from the bytes; the client’s claim is ignored.',
    }),
    isImage: Type.Boolean({
      description: 'A PNG, JPEG, GIF or WebP image (usable as avatar or image block).',
    }),
    size: Type.Integer(),
    sha256: Type.String(),
    createdAt: Timestamp,
    createdBy: Type.Union([Uuid, Type.Null()]),
  },
  { title: 'File' },
);
export type FileMetadata = Static<typeof FileMetadata>;
