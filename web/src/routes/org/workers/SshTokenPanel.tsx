import { useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { useSshToken, type WorkerRef, type WorkerSshToken } from '../../../api/workers.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';

/** The command that opens the worker's terminal endpoint with the token (JSON frames). */
export function sshCommand(token: WorkerSshToken): string {
  return `websocat -H 'Authorization: Bearer ${token.token}' '${token.terminalUrl}'`;
}

/**
 * A short-lived token for this worker's terminal endpoint, shown this once
 * with the command that uses it and a copy button.
 */
export function SshTokenPanel({ workerRef }: { workerRef: WorkerRef }) {
  const issue = useSshToken(workerRef);
  const [shown, setShown] = useState<WorkerSshToken | undefined>(undefined);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const command = shown === undefined ? '' : sshCommand(shown);
  const copy = () => {
    navigator.clipboard.writeText(command).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <section
      aria-labelledby="worker-ssh"
      className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="worker-ssh" className="text-lg font-semibold">
        SSH token
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        A token valid five minutes that opens this worker's terminal endpoint, as you, and nothing
        else: what an SSH gateway or a WebSocket client such as websocat presents. Frames are JSON
        (input and output in base64).
      </p>
      {shown === undefined ? null : (
        <section
          aria-label="The SSH token"
          className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950"
        >
          <p className="text-sm font-medium text-amber-900 dark:text-amber-100">
            Copy it now: it will not be shown again. It expires at{' '}
            {new Date(shown.expiresAt).toLocaleTimeString()}.
          </p>
          <code className="block rounded-md bg-white px-3 py-2 font-mono text-sm break-all text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100">
            {command}
          </code>
          <div className="flex flex-wrap items-center gap-2">
            <Button onClick={copy}>Copy command</Button>
            <Button
              variant="quiet"
              onClick={() => {
                setShown(undefined);
                setCopied('no');
              }}
            >
              Done
            </Button>
            <span role="status" className="text-sm text-amber-900 dark:text-amber-100">
              {copied === 'yes' ? 'Copied to the clipboard.' : ''}
              {copied === 'failed'
                ? 'The browser refused to copy: select the text and copy it.'
                : ''}
            </span>
          </div>
        </section>
      )}
      <FormAlert message={issue.isError ? refusalOf(issue.error).message : undefined} />
      <Button
        variant="quiet"
        className="self-start"
        disabled={issue.isPending}
        onClick={() =>
          issue.mutate(undefined, {
            onSuccess: (token) => {
              setCopied('no');
              setShown(token);
            },
          })
        }
      >
        Generate SSH token
      </Button>
    </section>
  );
}
