import { type FormEvent, useId, useState } from 'react';
import { Button } from '../Button.js';
import { FormAlert } from '../FormAlert.js';
import { TextField } from '../TextField.js';
import { RoleSelect } from './RoleSelect.js';

/** "a member", "an admin", "an owner", "a viewer". */
export function withArticle(role: string): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}

interface AddMemberSectionProps<R extends string> {
  /** The section's heading level where it sits (a settings page's sections are h3). */
  level: 'h2' | 'h3';
  intro: string;
  roles: readonly R[];
  labels: Record<R, string>;
  /** The input's `name`, for the command that focuses it. */
  inputName?: string;
  pending: boolean;
  /** A refusal about the address (no such account, already a member), in words. */
  emailRefusal: string | undefined;
  /** Any other refusal, in words. */
  formRefusal: string | undefined;
  /** Who was added, as the API answered. */
  added: { name: string; email: string; role: string } | undefined;
  /** Adds; `done` empties the address. */
  onAdd: (email: string, role: R, done: () => void) => void;
}

/** Adds an existing account by its e-mail address, with a role (a workspace's or an organization's). */
export function AddMemberSection<R extends string>(props: AddMemberSectionProps<R>) {
  const titleId = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<R | undefined>(undefined);
  const chosen = role ?? props.roles.find((candidate) => candidate === 'member') ?? props.roles[0];
  const Heading = props.level;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen !== undefined) props.onAdd(email.trim(), chosen, () => setEmail(''));
  };
  return (
    <section
      aria-labelledby={titleId}
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <Heading id={titleId} className="mb-1 text-lg font-semibold">
        Add a member
      </Heading>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">{props.intro}</p>
      <form onSubmit={submit} className="flex flex-col gap-4 sm:flex-row sm:items-start" noValidate>
        <div className="flex-1">
          <TextField
            label="E-mail of the account"
            name={props.inputName}
            type="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={props.emailRefusal}
          />
        </div>
        {chosen === undefined ? null : (
          <RoleSelect roles={props.roles} labels={props.labels} value={chosen} onChange={setRole} />
        )}
        <Button type="submit" disabled={props.pending} className="sm:mt-6">
          Add member
        </Button>
      </form>
      <div className="mt-3">
        <FormAlert message={props.formRefusal} />
        {props.added ? (
          <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
            {props.added.name || props.added.email} is now {withArticle(props.added.role)}.
          </p>
        ) : null}
      </div>
    </section>
  );
}
