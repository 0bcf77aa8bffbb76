import { useState } from 'react';
import { Button } from '../../../components/Button.js';

/** A value to copy (a token, a command): shown as code, with a Copy button that says "Copied.". */
export function CopyValue({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>(undefined);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <fieldset className="flex min-w-0 flex-col gap-1">
      <legend className="text-sm font-medium">{label}</legend>
      <code className="block rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-sm break-all text-zinc-900 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100">
        {value}
      </code>
      <div className="flex items-center gap-2">
        <Button variant="quiet" className="px-3 py-1" aria-label={`Copy ${label}`} onClick={copy}>
          Copy
        </Button>
        <span role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
          {copied === 'yes' ? 'Copied.' : null}
          {copied === 'failed' ? 'The browser refused to copy: select the text and copy it.' : null}
        </span>
      </div>
    </fieldset>
  );
}
