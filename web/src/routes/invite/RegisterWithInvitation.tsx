import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../api/errors.js';
import type { components } from '../../api/schema.js';
import { registrationQuery, useRegister } from '../../api/session.js';
import { Button } from '../../components/Button.js';
import { FormAlert } from '../../components/FormAlert.js';
import { TextField } from '../../components/TextField.js';
import { ProviderSignIn } from '../sign-in/ProviderSignIn.js';
import { appHref } from '../sign-in/redirect.js';

type Preview = components['schemas']['InvitationPreview'];

const linkClass =
  'rounded text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300';

/**
 * Without a session: create the account with the invitation (it works even
 * when registration is by invitation only), or sign in first and come back.
 */
export function RegisterWithInvitation({ token, preview }: { token: string; preview: Preview }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const register = useRegister();
  const registration = useQuery(registrationQuery);
  const navigate = useNavigate();
  const refusal = register.isError ? refusalOf(register.error) : undefined;
  const fieldError = (field: string) => (refusal?.field === field ? refusal.message : undefined);
  const back = `/invite?${new URLSearchParams({ token }).toString()}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    register.mutate(
      { name, email: preview.email, password, invitation: token },
      {
        onSuccess: () =>
          navigate({ to: '/$workspaceSlug', params: { workspaceSlug: preview.workspace.slug } }),
      },
    );
  };

  return (
    <>
      {registration.data?.providerName ? (
        <ProviderSignIn
          name={registration.data.providerName}
          returnTo={`${appHref('/sign-in')}?${new URLSearchParams({ redirect: `/${preview.workspace.slug}` }).toString()}`}
          invitation={token}
          error={undefined}
        />
      ) : null}
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <h2 className="text-base font-semibold">Create your account</h2>
        <TextField label="E-mail" name="email" value={preview.email} readOnly />
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={fieldError('name')}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={fieldError('password')}
        />
        <FormAlert message={refusal && refusal.field === undefined ? refusal.message : undefined} />
        <Button type="submit" disabled={register.isPending}>
          Create account and join
        </Button>
      </form>
      <p className="mt-4 text-sm">
        Already have an account?{' '}
        <Link to="/sign-in" search={{ redirect: back }} className={linkClass}>
          Sign in to join
        </Link>
      </p>
    </>
  );
}
