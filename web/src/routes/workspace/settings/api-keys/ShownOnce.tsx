import { useState } from 'react';
import { Button } from '../../../../components/Button.js';

interface ShownOnceProps {
  /** What the secret is ("The token of Deploy bot"). */
  label: string;
  secret: string;
  onDismiss: () => void;
}

/** A token or secret shown this once, with a copy button, until the person dismisses it. */
export function ShownOnce({ label, secret, onDismiss }: ShownOnceProps) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = () => {
    navigator.clipboard.writeText(secret).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <section
      aria-label={label}
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950"
    >
      <p className="text-sm font-medium text-amber-900 dark:text-amber-100">
        {label}: copy it now, it will not be shown again.
      </p>
      <code className="block rounded-md bg-white px-3 py-2 font-mono text-sm break-all text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100">
        {secret}
      </code>
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={copy}>Copy</Button>
        <Button variant="quiet" onClick={onDismiss}>
          Done
        </Button>
        <span role="status" className="text-sm text-amber-900 dark:text-amber-100">
          {copied === 'yes' ? 'Copied to the clipboard.' : ''}
          {copied === 'failed' ? 'The browser refused to copy: select the text and copy it.' : ''}
        </span>
      </div>
    </section>
  );
}
