import type { Block, BlockDocument } from '../../../../editor/document.js';

/** A worker a card's body links to (`/app/orgs/{orgId}/projects/{projectId}/workers/{workerId}`). */
export interface WorkerLink {
  orgId: string;
  projectId: string;
  workerId: string;
  /** The link's text ("Worker swift-fox (rm-1-launch)"), to name a worker deleted since. */
  text: string;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const WORKER_PATH = new RegExp(`^/app/orgs/(${UUID})/projects/(${UUID})/workers/(${UUID})/?$`, 'i');

/** The address of a worker's page in this app, as a card's body links to it. */
export function workerPageUrl(origin: string, link: Omit<WorkerLink, 'text'>): string {
  return `${origin}/app/orgs/${link.orgId}/projects/${link.projectId}/workers/${link.workerId}`;
}

/** A worker's page on this origin, or undefined for any other address. */
export function parseWorkerHref(
  href: string,
  origin: string,
): Omit<WorkerLink, 'text'> | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  const match = WORKER_PATH.exec(url.pathname);
  if (match === null) return undefined;
  const [, orgId = '', projectId = '', workerId = ''] = match;
  return { orgId, projectId, workerId };
}

/** Every worker the body links to, once each, in the order they appear. */
export function workerLinksOf(document: BlockDocument, origin: string): WorkerLink[] {
  const found = new Map<string, WorkerLink>();
  for (const block of document.blocks) {
    for (const inline of inlinesOf(block)) {
      if (inline.type !== 'link') continue;
      const link = parseWorkerHref(inline.href, origin);
      if (link === undefined || found.has(link.workerId)) continue;
      const text = inline.content.map((node) => node.text).join('');
      found.set(link.workerId, { ...link, text });
    }
  }
  return [...found.values()];
}

function inlinesOf(block: Block) {
  return 'content' in block && Array.isArray(block.content) ? block.content : [];
}

/** The paragraph that records a worker on its card: a link to its page named by its name and branch. */
export function workerLinkBlock(
  origin: string,
  worker: { id: string; orgId: string; projectId: string; name: string; branch: string | null },
): Block {
  const href = workerPageUrl(origin, {
    orgId: worker.orgId,
    projectId: worker.projectId,
    workerId: worker.id,
  });
  const text =
    worker.branch === null ? `Worker ${worker.name}` : `Worker ${worker.name} (${worker.branch})`;
  return {
    type: 'paragraph',
    content: [{ type: 'link', href, content: [{ type: 'text', text }] }],
  };
}
