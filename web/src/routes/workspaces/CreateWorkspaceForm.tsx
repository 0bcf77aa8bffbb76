import { useLocation } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../api/errors.js';
import { useCreateWorkspace } from '../../api/workspaces.js';
import { Button } from '../../components/Button.js';
import { FormAlert } from '../../components/FormAlert.js';
import { TextField } from '../../components/TextField.js';

export const CREATE_WORKSPACE_ANCHOR = 'create-workspace-title';

/** Create a workspace (name, slug); a taken or malformed slug is refused next to it. */
export function CreateWorkspaceForm() {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const create = useCreateWorkspace();
  // The switcher's "Create a workspace" lands here with this hash: straight to the name.
  const asked = useLocation({ select: (location) => location.hash === CREATE_WORKSPACE_ANCHOR });
  const refusal = create.isError
    ? refusalOf(create.error, { slug_taken: 'slug', slug_reserved: 'slug' })
    : undefined;
  const fieldError = (field: string) => (refusal?.field === field ? refusal.message : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, slug },
      {
        onSuccess: () => {
          setName('');
          setSlug('');
        },
      },
    );
  };

  return (
    <section
      aria-labelledby="create-workspace-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id={CREATE_WORKSPACE_ANCHOR} className="mb-4 text-lg font-semibold">
        Create a workspace
      </h2>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="Name"
          name="name"
          required
          autoFocus={asked}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={fieldError('name')}
        />
        <TextField
          label="Slug"
          name="slug"
          required
          hint="Lowercase letters, digits and dashes; it is part of the workspace's address."
          value={slug}
          onChange={(event) => setSlug(event.target.value)}
          error={fieldError('slug')}
        />
        <FormAlert message={refusal && refusal.field === undefined ? refusal.message : undefined} />
        <Button type="submit" disabled={create.isPending} className="self-start">
          Create workspace
        </Button>
      </form>
    </section>
  );
}
