/** A tiny JSON client for benchmarks, against a running server. */
export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Registers a user and returns its session token. */
export async function registerUser(base: string, email = 'bench@example.test'): Promise<string> {
  const session = await call<{ token: string }>(base, 'POST', '/auth/register', {
    email,
    password: 'benchmark password',
    name: 'Bench',
  });
  return session.token;
}
