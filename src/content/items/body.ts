import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { bodyValidator } from '../../http/validation.js';
import { existingFileIds } from '../files/service.js';
import { BlockDocument } from './block-schemas.js';
import { imageFileIds, normalizeBlockDocument } from './blocks.js';
import { parseMarkdown } from './markdown-parse.js';
import { renderMarkdown } from './markdown-render.js';

export interface Body {
  blocks: BlockDocument;
  body: string;
}

const checkDocument = bodyValidator(BlockDocument);

/**
 * The blocks Markdown makes, held to the schema `blocks` are held to: long
 * Markdown can pass its limits (blocks, text, link and language lengths).
 */
function fromMarkdown(markdown: string): BlockDocument {
  const document = parseMarkdown(markdown);
  if (checkDocument(document)) return document;
  const issue = checkDocument.errors?.[0];
  const path = `/blocks${issue?.instancePath ?? ''}`;
  throw badRequest(
    'invalid_block',
    `The Markdown makes a block document past its limits: ${path} ${issue?.message ?? 'is invalid'}`,
    { path },
  );
}

/**
 * The stored body from `blocks`, which the route schema has checked (the
 * Markdown projection is recomputed), or from `body` (the blocks are derived
 * from the Markdown); both is 400. Image blocks must cite image files of the
 * workspace. Undefined: unchanged.
 */
export async function resolveBody(
  db: Database,
  workspaceId: string,
  input: { blocks?: BlockDocument; body?: string },
): Promise<Body | undefined> {
  if (input.blocks !== undefined && input.body !== undefined) {
    throw badRequest('blocks_and_body', 'Send the body as `blocks` or as `body`, not both');
  }
  let blocks: BlockDocument;
  if (input.blocks !== undefined) blocks = normalizeBlockDocument(input.blocks);
  else if (input.body !== undefined) blocks = fromMarkdown(input.body);
  else return undefined;
  const images = imageFileIds(blocks);
  const known = await existingFileIds(db, workspaceId, images, true);
  const missing = images.find((id) => !known.has(id));
  if (missing !== undefined) {
    throw badRequest(
      'unknown_file',
      'An image block cites a file that is not an image of this workspace',
      {
        fileId: missing,
      },
    );
  }
  return { blocks, body: renderMarkdown(blocks) };
}
