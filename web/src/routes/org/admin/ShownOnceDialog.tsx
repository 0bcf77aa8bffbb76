import { Button } from '../../../components/Button.js';
import { Dialog } from '../../../components/Dialog.js';
import { CopyValue } from './CopyValue.js';

export interface ShownOnce {
  title: string;
  /** What to copy, each with its label ("Token", "Agent command"). */
  values: { label: string; value: string }[];
}

/**
 * A secret shown this once (a key's or a node's token), with copy buttons.
 * Closing it forgets the secret: the page never has it again.
 */
export function ShownOnceDialog({
  shown,
  onClose,
}: {
  shown: ShownOnce | undefined;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={shown !== undefined}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={shown?.title ?? ''}
      description="Copy it now: it is shown only this once and cannot be read again."
    >
      <div className="flex flex-col gap-4">
        {shown?.values.map((item) => (
          <CopyValue key={item.label} label={item.label} value={item.value} />
        ))}
        <Button className="self-end" onClick={onClose}>
          Done
        </Button>
      </div>
    </Dialog>
  );
}
