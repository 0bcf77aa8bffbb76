import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../api/errors.js';
import { registrationQuery, useLogin } from '../../api/session.js';
import { Button } from '../../components/Button.js';
import { Card } from '../../components/Card.js';
import { FormAlert } from '../../components/FormAlert.js';
import { TextField } from '../../components/TextField.js';
import { ProviderSignIn } from './ProviderSignIn.js';
import { appHref, carried, goOn, safeRedirect } from './redirect.js';

const route = getRouteApi('/signed-out/sign-in');

/**
 * Sign in with e-mail and password (a wrong pair is refused next to the
 * password) or with the identity provider when one is configured; then on
 * to where the person was headed (`?redirect=`, a path inside the app, or a
 * private service's sign-in step on the server, opened by a full page load).
 */
export function SignIn() {
  const search = route.useSearch();
  const destination = safeRedirect(search.redirect);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const registration = useQuery(registrationQuery);
  const navigate = useNavigate();
  const refusal = login.isError
    ? refusalOf(login.error, { invalid_credentials: 'password' })
    : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate(
      { email, password },
      {
        onSuccess: () => goOn(destination, navigate),
      },
    );
  };

  return (
    <Card title="Sign in">
      {registration.data?.providerName ? (
        <ProviderSignIn
          name={registration.data.providerName}
          returnTo={`${appHref('/sign-in')}?${new URLSearchParams({ redirect: destination }).toString()}`}
          error={search.idpError}
        />
      ) : null}
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={refusal?.field === 'email' ? refusal.message : undefined}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={refusal?.field === 'password' ? refusal.message : undefined}
        />
        <FormAlert message={refusal && refusal.field === undefined ? refusal.message : undefined} />
        <Button type="submit" disabled={login.isPending}>
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {registration.data?.doors.password ? (
        <p className="mt-4 text-sm">
          No account yet?{' '}
          <Link
            to="/register"
            search={carried(search.redirect)}
            className="rounded text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
          >
            Create an account
          </Link>
        </p>
      ) : null}
    </Card>
  );
}
