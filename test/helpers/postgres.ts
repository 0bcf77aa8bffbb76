export const TEST_DATABASE_PREFIX = 'sparrow_test_';

/** The same server, another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The database the test run connects to for CREATE and DROP DATABASE. */
export function adminUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  return url.pathname === '' || url.pathname === '/'
    ? databaseUrl(serverUrl, 'postgres')
    : serverUrl;
}
