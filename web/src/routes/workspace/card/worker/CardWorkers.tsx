import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { orgsQuery } from '../../../../api/orgs.js';
import type { Worker } from '../../../../api/workers.js';
import { useCommands } from '../../../../commands/registry.js';
import { Dialog } from '../../../../components/Dialog.js';
import type { Block, BlockDocument } from '../../../../editor/document.js';
import { branchName } from './branchName.js';
import { LinkedWorker } from './LinkedWorker.js';
import { OpenWorkerForm } from './OpenWorkerForm.js';
import { workerLinkBlock, workerLinksOf } from './workerLinks.js';

const BUTTON =
  'rounded-md border border-zinc-300 px-2 py-1 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:hover:bg-zinc-800';

interface CardWorkersProps {
  cardKey: string;
  cardTitle: string;
  /** The body as shown (with what is still being typed). */
  blocks: BlockDocument;
  /** Whether the person may open a worker here (they can write the card). */
  editable: boolean;
  /** Adds blocks at the end of the body, the way typing there would (saved with the draft). */
  appendBlocks: (blocks: Block[]) => void;
}

/**
 * The workers a card's body links to, with their live states, and "Open a
 * worker": spawned from a project of one of the person's organizations, on
 * a branch named from the card, and recorded as a link at the end of the body.
 */
export function CardWorkers(props: CardWorkersProps) {
  const [open, setOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const links = workerLinksOf(props.blocks, window.location.origin);
  const orgs = useQuery({ ...orgsQuery, enabled: links.length > 0 });
  const memberOf = new Set(orgs.data?.map((org) => org.id));
  useCommands(
    props.editable
      ? [
          {
            id: 'card.open-worker',
            label: 'Open a worker',
            group: 'Card',
            keywords: ['spawn', 'branch', 'workspace', 'container'],
            run: () => setOpen(true),
          },
        ]
      : [],
  );
  if (!props.editable && links.length === 0) return null;
  const opened = (worker: Worker) => {
    props.appendBlocks([workerLinkBlock(window.location.origin, worker)]);
    setAnnouncement(`Worker ${worker.name} opened; its link is added to the body.`);
    setOpen(false);
  };
  return (
    <section aria-labelledby="card-workers-title" className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h2 id="card-workers-title" className="text-sm font-semibold">
          Workers
        </h2>
        {props.editable ? (
          <button ref={opener} type="button" className={BUTTON} onClick={() => setOpen(true)}>
            Open a worker
          </button>
        ) : null}
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {links.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No worker yet. Open one to work on this card in a container of its own.
        </p>
      ) : (
        <ul className="flex flex-col gap-2 text-sm">
          {links.map((link) => (
            <LinkedWorker
              key={link.workerId}
              link={link}
              member={orgs.isPending || memberOf.has(link.orgId)}
            />
          ))}
        </ul>
      )}
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={`Open a worker for ${props.cardKey}`}
        description="A container from a project, on a branch named after this card. Its link is added to the card's body."
        onCloseAutoFocus={(event) => {
          // Never back into the editor: the body was just changed under it (see appendBlocks).
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <OpenWorkerForm
          defaultBranch={branchName(props.cardKey, props.cardTitle)}
          onOpened={opened}
          onCancel={() => setOpen(false)}
        />
      </Dialog>
    </section>
  );
}
