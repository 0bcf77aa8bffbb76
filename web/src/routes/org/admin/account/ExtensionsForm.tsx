import { type FormEvent, useState } from 'react';
import { type UserMe, useUpdateMe } from '../../../../api/account.js';
import { refusalOf } from '../../../../api/errors.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { StringListEditor } from '../../../../components/StringListEditor.js';

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * The editor extensions installed in each of your workers: the whole list is
 * sent on save (empty rows left out); an empty list removes them all.
 */
export function ExtensionsForm({ me }: { me: UserMe }) {
  const [items, setItems] = useState<string[]>(me.extensions);
  const update = useUpdateMe();
  const refusal = update.isError ? refusalOf(update.error) : undefined;
  const wanted = items.map((item) => item.trim()).filter((item) => item !== '');
  const changed = !same(wanted, me.extensions);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ extensions: wanted }, { onSuccess: (saved) => setItems(saved.extensions) });
  };
  return (
    <section
      aria-labelledby="extensions-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="extensions-title" className="text-lg font-semibold">
        Editor extensions
      </h2>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <StringListEditor
          legend="Extensions"
          hint="Installed in each of your workers, besides the project's: publisher.name, optionally @version, each once. Remove every row and save to have none."
          itemLabel="Extension"
          placeholder="esbenp.prettier-vscode"
          addLabel="Add extension"
          empty="No extension."
          items={items}
          changed={changed}
          error={refusal?.field?.startsWith('extensions') ? refusal.message : undefined}
          onChange={(next) => {
            update.reset();
            setItems(next);
          }}
        />
        <FormAlert
          message={
            refusal && !refusal.field?.startsWith('extensions') ? refusal.message : undefined
          }
        />
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={update.isPending || !changed}>
            Save extensions
          </Button>
          <span role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
            {update.isSuccess ? 'Saved.' : null}
          </span>
        </div>
      </form>
    </section>
  );
}
