import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type BuiltApp, buildApp } from '../../src/app.js';
import { modules } from '../../src/modules.js';
import type { TestApp } from './app.js';
import { createClient } from './http.js';

/**
 * A second application on `t`'s database, standing for another server
 * process (its own runner, registry and listener). It shares `t`'s source of
 * notifications unless `notifications: false`, which builds it without one,
 * as the files that asked for no more did.
 */
export function anotherProcess(
  t: TestApp,
  options: { notifications?: boolean } = {},
): Promise<BuiltApp> {
  const shared = options.notifications === false ? {} : { notifications: t.notifications };
  return buildApp({ config: t.ctx.config, db: t.db, dbKind: t.dbKind, modules, ...shared });
}

/** Listens on a loopback port and gives the app's base URL (`http://127.0.0.1:<port>`). */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/**
 * `anotherProcess` as a TestApp: the same database (read through `t`),
 * clients of its own, and a `close` that closes only this app.
 */
export async function anotherTestApp(t: TestApp): Promise<TestApp> {
  const built = await anotherProcess(t);
  return {
    app: built.app,
    ctx: built.ctx,
    routes: built.routes,
    db: t.db,
    dbKind: t.dbKind,
    notifications: t.notifications,
    http: createClient(built.app, ''),
    api: createClient(built.app, '/api'),
    close: () => built.app.close(),
  };
}
