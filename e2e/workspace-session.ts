import type { Page } from 'playwright-core';
import type { TestUser } from '../test/helpers/factories.js';

/**
 * Signs the page's browser in as `user` by the `session` cookie that signing
 * in sets (the sign-in screen itself is tested in sign-in.test.ts).
 */
export async function signInAs(page: Page, url: string, user: TestUser): Promise<void> {
  await page
    .context()
    .addCookies([{ name: 'session', value: user.token, url, httpOnly: true, sameSite: 'Lax' }]);
}
