import { describe, expect, it } from 'vitest';
import { parseWorkerHref, workerLinkBlock, workerLinksOf } from './workerLinks.js';

const ORIGIN = 'https://sparrow.example';
const ORG = '0190c6a0-0000-7000-8000-000000000001';
const PROJECT = '0190c6a0-0000-7000-8000-000000000002';
const WORKER = '0190c6a0-0000-7000-8000-000000000003';
const worker = { id: WORKER, orgId: ORG, projectId: PROJECT, name: 'swift-fox', branch: 'rm-1-go' };

describe("a card's worker links", () => {
  it('are written as a paragraph whose link names the worker and its branch', () => {
    expect(workerLinkBlock(ORIGIN, worker)).toEqual({
      type: 'paragraph',
      content: [
        {
          type: 'link',
          href: `${ORIGIN}/app/orgs/${ORG}/projects/${PROJECT}/workers/${WORKER}`,
          content: [{ type: 'text', text: 'Worker swift-fox (rm-1-go)' }],
        },
      ],
    });
  });

  it('are found in the body once each, with their text', () => {
    const block = workerLinkBlock(ORIGIN, worker);
    const links = workerLinksOf(
      {
        blocks: [
          { type: 'paragraph', content: [{ type: 'text', text: 'Notes' }] },
          block,
          { type: 'divider' },
          block,
        ],
      },
      ORIGIN,
    );
    expect(links).toEqual([
      { orgId: ORG, projectId: PROJECT, workerId: WORKER, text: 'Worker swift-fox (rm-1-go)' },
    ]);
  });

  it('are only worker pages of this app', () => {
    const path = `/app/orgs/${ORG}/projects/${PROJECT}/workers/${WORKER}`;
    expect(parseWorkerHref(`${ORIGIN}${path}`, ORIGIN)).toEqual({
      orgId: ORG,
      projectId: PROJECT,
      workerId: WORKER,
    });
    expect(parseWorkerHref(`https://elsewhere.example${path}`, ORIGIN)).toBeUndefined();
    expect(parseWorkerHref(`${ORIGIN}${path}/terminal`, ORIGIN)).toBeUndefined();
    expect(parseWorkerHref(`${ORIGIN}/app/orgs/${ORG}`, ORIGIN)).toBeUndefined();
    expect(parseWorkerHref('not a url', ORIGIN)).toBeUndefined();
  });
});
