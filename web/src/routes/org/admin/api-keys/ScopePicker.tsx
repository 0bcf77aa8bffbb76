import type { KeyScope } from '../../../../api/platform-keys.js';
import { SCOPES } from './scopes.js';

/** The scopes as checkboxes, each described by its meaning. */
export function ScopePicker({
  value,
  onChange,
  error,
}: {
  value: readonly KeyScope[];
  onChange: (scopes: KeyScope[]) => void;
  error: string | undefined;
}) {
  const toggle = (scope: KeyScope, on: boolean) =>
    onChange(on ? [...value, scope] : value.filter((candidate) => candidate !== scope));
  return (
    <fieldset
      aria-describedby={error === undefined ? undefined : 'scopes-error'}
      className="flex flex-col gap-2"
    >
      <legend className="mb-1 text-sm font-medium">Scopes</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {SCOPES.map(({ scope, meaning }) => {
          const id = `scope-${scope === '*' ? 'all' : scope.replace(':', '-')}`;
          return (
            <div key={scope} className="flex items-start gap-2">
              <input
                id={id}
                type="checkbox"
                checked={value.includes(scope)}
                aria-describedby={`${id}-meaning`}
                onChange={(event) => toggle(scope, event.target.checked)}
                className="mt-1 h-4 w-4 shrink-0 accent-blue-700"
              />
              <div className="flex flex-col">
                <label htmlFor={id} className="font-mono text-sm">
                  {scope}
                </label>
                <span id={`${id}-meaning`} className="text-xs text-zinc-600 dark:text-zinc-400">
                  {meaning}
                </span>
              </div>
            </div>
          );
        })}
      </div>
      {error === undefined ? null : (
        <p id="scopes-error" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </fieldset>
  );
}
