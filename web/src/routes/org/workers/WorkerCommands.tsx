import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { formatMoment } from '../../../api/events.js';
import {
  type CommandInfo,
  type ExecResult,
  useCancelCommand,
  useExec,
  workerCommandsQuery,
} from '../../../api/worker-commands.js';
import type { WorkerRef } from '../../../api/workers.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { LogView } from '../../../components/LogView.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { TextField } from '../../../components/TextField.js';
import { CommandOutputView } from './CommandOutputView.js';

const PANEL =
  'flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900';
const MUTED = 'text-sm text-zinc-600 dark:text-zinc-400';

/** How a waited command ended, in words. */
function endWords(result: ExecResult): string {
  const took = `in ${result.durationMs} ms`;
  const ended = result.timedOut
    ? `Killed at its time-out ${took}`
    : `Exited with ${result.exitCode ?? 'no code'} ${took}`;
  return result.truncated ? `${ended}; output beyond 4 MiB was dropped.` : `${ended}.`;
}

/** A command as typed: the line given to `sh -c`, else the argument vector joined. */
function commandText(argv: readonly string[]): string {
  const [shell, flag, line] = argv;
  return shell === '/bin/sh' && flag === '-c' && line !== undefined ? line : argv.join(' ');
}

/**
 * Running a command in the worker (`sh -c`): waited for, with its exit code
 * and output, or in the background, listed below with its state, its output
 * so far and a way to cancel it.
 */
export function WorkerCommands({ workerRef, running }: { workerRef: WorkerRef; running: boolean }) {
  const [command, setCommand] = useState('');
  const [background, setBackground] = useState(false);
  const [result, setResult] = useState<ExecResult | undefined>(undefined);
  const exec = useExec(workerRef);
  const commands = useQuery(workerCommandsQuery(workerRef, running));
  const refusal = exec.isError ? refusalOf(exec.error) : undefined;

  const run = (event: FormEvent) => {
    event.preventDefault();
    setResult(undefined);
    exec.mutate(
      { command, ...(background ? { background: true } : {}) },
      { onSuccess: (answer) => ('durationMs' in answer ? setResult(answer) : setCommand('')) },
    );
  };

  return (
    <section aria-labelledby="worker-commands" className={PANEL}>
      <h2 id="worker-commands" className="text-lg font-semibold">
        Commands
      </h2>
      <form onSubmit={run} className="flex flex-col gap-3" aria-label="Run a command" noValidate>
        <TextField
          label="Command"
          value={command}
          onChange={(event) => setCommand(event.target.value)}
          hint="Run with sh -c in /workspaces, as the worker's user."
          error={refusal?.field === 'command' ? refusal.message : undefined}
          spellCheck={false}
          autoComplete="off"
        />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={background}
            onChange={(event) => setBackground(event.target.checked)}
          />
          In the background (it keeps running when you leave; listed below)
        </label>
        <Button
          type="submit"
          className="self-start"
          disabled={!running || exec.isPending || command.trim() === ''}
        >
          {exec.isPending && !background ? 'Running…' : 'Run'}
        </Button>
        {running ? null : <p className={MUTED}>Commands run while the worker is ready.</p>}
        <FormAlert message={refusal && refusal.field !== 'command' ? refusal.message : undefined} />
      </form>
      {result === undefined ? null : (
        <div className="flex flex-col gap-2">
          <p role="status" className="text-sm">
            {endWords(result)}
          </p>
          <LogView label="Standard output" text={result.stdout} empty="No output." />
          {result.stderr === '' ? null : <LogView label="Standard error" text={result.stderr} />}
        </div>
      )}
      <BackgroundCommands workerRef={workerRef} commands={commands.data} />
      {commands.isError ? <FormAlert message={commands.error.message} /> : null}
    </section>
  );
}

function BackgroundCommands({
  workerRef,
  commands,
}: {
  workerRef: WorkerRef;
  commands: CommandInfo[] | undefined;
}) {
  const [shown, setShown] = useState<string | undefined>(undefined);
  const cancel = useCancelCommand(workerRef);
  if (commands === undefined || commands.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-medium">In the background</h3>
      <ul aria-label="Background commands" className="flex flex-col gap-2">
        {commands.map((info) => {
          const text = commandText(info.command);
          return (
            <li
              key={info.id}
              className="flex flex-col gap-2 border-t border-zinc-200 pt-2 dark:border-zinc-700"
            >
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <code className="break-all">{text}</code>
                <StateBadge state={info.state} reason={info.error} />
                <span className={MUTED}>
                  {info.exitCode === null ? '' : `exit ${info.exitCode} · `}started{' '}
                  {formatMoment(info.startedAt)}
                </span>
                <Button
                  variant="quiet"
                  aria-expanded={shown === info.id}
                  onClick={() => setShown(shown === info.id ? undefined : info.id)}
                >
                  {shown === info.id ? 'Hide output' : 'Show output'}
                  <span className="sr-only"> of {text}</span>
                </Button>
                {info.state === 'running' ? (
                  <Button
                    variant="quiet"
                    disabled={cancel.isPending}
                    onClick={() => cancel.mutate(info.id)}
                  >
                    Cancel<span className="sr-only"> {text}</span>
                  </Button>
                ) : null}
              </div>
              {shown === info.id ? (
                <CommandOutputView workerRef={workerRef} commandId={info.id} label={text} />
              ) : null}
            </li>
          );
        })}
      </ul>
      {cancel.isError ? <FormAlert message={refusalOf(cancel.error).message} /> : null}
    </div>
  );
}
