import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../api/errors.js';
import { registrationQuery, useRegister } from '../../api/session.js';
import { Button } from '../../components/Button.js';
import { Card } from '../../components/Card.js';
import { FormAlert } from '../../components/FormAlert.js';
import { TextField } from '../../components/TextField.js';
import { carried, goOn, safeRedirect } from '../sign-in/redirect.js';

const route = getRouteApi('/signed-out/register');

const linkClass =
  'rounded text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300';

/**
 * Create an account with e-mail and password, when the instance's
 * registration is open; then on to where the person was headed (the
 * `?redirect=` carried from the sign-in screen), as after signing in.
 */
export function Register() {
  const search = route.useSearch();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const registration = useQuery(registrationQuery);
  const register = useRegister();
  const navigate = useNavigate();
  const refusal = register.isError
    ? refusalOf(register.error, { email_taken: 'email' })
    : undefined;
  const fieldError = (field: string) => (refusal?.field === field ? refusal.message : undefined);

  if (registration.data && !registration.data.doors.password) {
    return (
      <Card title="Create an account">
        <p className="text-sm">
          Registration on this instance is by invitation only. Ask a workspace owner for an
          invitation, or{' '}
          <Link to="/sign-in" search={carried(search.redirect)} className={linkClass}>
            sign in
          </Link>
          .
        </p>
      </Card>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    register.mutate(
      { name, email, password },
      { onSuccess: () => goOn(safeRedirect(search.redirect), navigate) },
    );
  };

  return (
    <Card title="Create an account">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
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
          label="E-mail"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={fieldError('email')}
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
          Create account
        </Button>
      </form>
      <p className="mt-4 text-sm">
        Already have an account?{' '}
        <Link to="/sign-in" search={carried(search.redirect)} className={linkClass}>
          Sign in
        </Link>
      </p>
    </Card>
  );
}
