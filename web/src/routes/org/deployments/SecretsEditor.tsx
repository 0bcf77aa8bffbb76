import { useState } from 'react';
import type { SecretChange } from '../../../api/deployments.js';
import { Button } from '../../../components/Button.js';
import { TextField } from '../../../components/TextField.js';
import { MUTED } from './Section.js';

interface SecretsEditorProps {
  /** The names stored (values are never returned). */
  names: string[];
  changes: SecretChange[];
  onChange: (changes: SecretChange[]) => void;
  error?: string | undefined;
}

function plan(change: SecretChange | undefined): string {
  if (change === undefined) return 'kept';
  return change.value === null ? 'will be removed' : 'will be replaced';
}

/**
 * Write-only secrets: the stored names, each kept, replaced or removed, and
 * new ones added; the changes go with the next save, values never shown back.
 */
export function SecretsEditor({ names, changes, onChange, error }: SecretsEditorProps) {
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const changeOf = (secret: string) => changes.find((change) => change.name === secret);
  const put = (change: SecretChange) =>
    onChange([...changes.filter((other) => other.name !== change.name), change]);
  const drop = (secret: string) => onChange(changes.filter((change) => change.name !== secret));
  const added = changes.filter((change) => !names.includes(change.name));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">Secrets</legend>
      <p className={MUTED}>Values are write-only: they are never shown again.</p>
      {names.length === 0 && added.length === 0 ? <p className={MUTED}>No secret.</p> : null}
      <ul className="flex flex-col gap-2">
        {names.map((secret) => {
          const change = changeOf(secret);
          return (
            <li key={secret} className="flex flex-wrap items-end gap-2">
              <span className="font-mono text-sm">{secret}</span>
              <span className={MUTED}>({plan(change)})</span>
              {change !== undefined && change.value !== null ? (
                <TextField
                  label={`New value of ${secret}`}
                  type="password"
                  autoComplete="off"
                  value={change.value}
                  onChange={(event) => put({ name: secret, value: event.target.value })}
                />
              ) : null}
              {change === undefined ? (
                <>
                  <Button variant="quiet" onClick={() => put({ name: secret, value: '' })}>
                    Replace {secret}
                  </Button>
                  <Button variant="quiet" onClick={() => put({ name: secret, value: null })}>
                    Remove {secret}
                  </Button>
                </>
              ) : (
                <Button variant="quiet" onClick={() => drop(secret)}>
                  Keep {secret}
                </Button>
              )}
            </li>
          );
        })}
        {added.map((change) => (
          <li key={change.name} className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-sm">{change.name}</span>
            <span className={MUTED}>(will be added)</span>
            <Button variant="quiet" onClick={() => drop(change.name)}>
              Do not add {change.name}
            </Button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-end gap-2">
        <TextField
          label="New secret name"
          value={name}
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
        />
        <TextField
          label="New secret value"
          type="password"
          autoComplete="off"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <Button
          variant="quiet"
          disabled={name.trim() === ''}
          onClick={() => {
            put({ name: name.trim(), value });
            setName('');
            setValue('');
          }}
        >
          Add secret
        </Button>
      </div>
      {error ? <p className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
    </fieldset>
  );
}
