import { useState } from 'react';
import { Button } from '../../../../components/Button.js';

/** The invitation's link, shown once, with a button that copies it. */
export function InvitationLink({ email, token }: { email: string; token: string }) {
  const link = `${window.location.origin}/app/invite?token=${encodeURIComponent(token)}`;
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>(undefined);
  const copy = () =>
    navigator.clipboard.writeText(link).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <div className="mt-4 rounded-md border border-blue-200 bg-blue-50 p-4 dark:border-blue-900 dark:bg-blue-950">
      <p className="mb-2 text-sm">
        The link for <span className="font-medium">{email}</span>, shown only now:
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          aria-label="Invitation link"
          readOnly
          value={link}
          onFocus={(event) => event.target.select()}
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 font-mono text-xs text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <Button variant="quiet" className="px-3 py-1" onClick={copy}>
          Copy link
        </Button>
      </div>
      <p role="status" className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
        {copied === 'yes' ? 'Copied.' : null}
        {copied === 'failed' ? 'The browser refused to copy: select the link and copy it.' : null}
      </p>
    </div>
  );
}
