import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { refusalOf } from '../api/errors.js';
import { Button } from './Button.js';
import { ConfirmDialog } from './ConfirmDialog.js';

interface LeaveSectionProps {
  /** What is left, in words: "workspace", "organization". */
  kind: string;
  name: string;
  /** What the person no longer sees, said in the confirmation. */
  loses: string;
  /** Removes the person and goes elsewhere; rejects with the API's refusal. */
  leave: () => Promise<unknown>;
  /** A refusal in words, with what to do about it. */
  explain: (code: string, message: string) => string;
}

/**
 * Leaving a workspace or an organization (removing oneself), after a
 * confirmation; a refusal (the last owner) is explained beside the button.
 */
export function LeaveSection({ kind, name, loses, leave, explain }: LeaveSectionProps) {
  const titleId = useId();
  const errorId = useId();
  const [confirming, setConfirming] = useState(false);
  const leaving = useMutation({ mutationFn: leave });
  const refusal = leaving.isError ? refusalOf(leaving.error) : undefined;
  return (
    <section
      aria-labelledby={titleId}
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h3 id={titleId} className="mb-1 text-lg font-semibold">
        Leave the {kind}
      </h3>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        You lose access to {name} until someone adds you again.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="danger"
          aria-describedby={refusal ? errorId : undefined}
          onClick={() => {
            leaving.reset();
            setConfirming(true);
          }}
        >
          Leave {kind}…
        </Button>
        {refusal ? (
          <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-300">
            {explain(refusal.code, refusal.message)}
          </p>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Leave ${name}?`}
        description={loses}
        confirmLabel={`Leave ${kind}`}
        pending={leaving.isPending}
        onConfirm={() => leaving.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </section>
  );
}
