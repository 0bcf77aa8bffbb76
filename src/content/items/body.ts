import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { existingFileIds } from '../files/service.js';
import { type BlockDocument, imageFileIds, parseBlockDocument } from './blocks.js';
import { parseMarkdown } from './markdown-parse.js';
import { renderMarkdown } from './markdown-render.js';

export interface Body {
  blocks: BlockDocument;
  body: string;
}

/**
 * The stored body from `blocks` (the Markdown projection is recomputed) or
 * from `body` (the blocks are derived from the Markdown); both is 400.
 * Image blocks must cite image files of the workspace. Undefined: unchanged.
 */
export async function resolveBody(
  db: Database,
  workspaceId: string,
  input: { blocks?: unknown; body?: string },
): Promise<Body | undefined> {
  if (input.blocks !== undefined && input.body !== undefined) {
    throw badRequest('blocks_and_body', 'Send the body as `blocks` or as `body`, not both');
  }
  let blocks: BlockDocument;
  if (input.blocks !== undefined) blocks = parseBlockDocument(input.blocks);
  else if (input.body !== undefined) blocks = parseMarkdown(input.body);
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
