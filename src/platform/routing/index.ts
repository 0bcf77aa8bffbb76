import type { IncomingMessage } from 'node:http';
import type { AppContext, AppModule, Interceptor } from '../../module.js';
import { hostName, mayBeCustomDomain, serviceIdOfHost } from './hosts.js';
import { ServiceProxy } from './proxy.js';
import { RouteTable } from './targets.js';

export { announceRoutes, ROUTES_CHANNEL } from './targets.js';

/** How long this process trusts its read of a service's targets without a notification. */
const ROUTES_TTL_MS = 5_000;

/**
 * Service URLs: a request whose Host is `svc-{serviceId}.{SERVICE_DOMAIN}`
 * (any port) or a verified custom domain is proxied to the service. Any
 * other name under SERVICE_DOMAIN (`login.{domain}`, a malformed `svc-`
 * label) is answered 404 `service_not_found`, never by the API: the API on
 * the services' site would let one service's pages sign people in or read
 * its answers. The API's own host (PUBLIC_URL's) is the API's even when it
 * is under SERVICE_DOMAIN. Any other name goes on to the API.
 */
function serviceRouting(ctx: AppContext): Interceptor {
  const table = new RouteTable(ctx.db, ROUTES_TTL_MS);
  table.listen(ctx);
  const proxy = new ServiceProxy(ctx, table);
  const { domain } = ctx.config.serviceUrls;
  const own = new Set([new URL(ctx.config.publicUrl).hostname.toLowerCase()]);
  const underDomain = (host: string) => host === domain || host.endsWith(`.${domain}`);

  /**
   * Calls `take` with the service the request is for, `unknown` for a name
   * of the service domain that is no service's, or `pass` when it is for the API.
   */
  const route = (
    request: IncomingMessage,
    pass: () => void,
    unknown: (host: string) => void,
    handle: (host: string, serviceId: string) => Promise<void>,
  ) => {
    const take = (host: string, serviceId: string) =>
      handle(host, serviceId).catch((error: unknown) => {
        ctx.log.error({ err: error, serviceId }, 'service proxy failed');
        request.socket.destroy();
      });
    const host = hostName(request.headers.host);
    if (host === null) return pass();
    const serviceId = serviceIdOfHost(host, domain);
    if (serviceId !== null) return void take(host, serviceId);
    if (own.has(host)) return pass();
    const ours = underDomain(host);
    const other = ours ? () => unknown(host) : pass;
    if (!mayBeCustomDomain(host, own)) return other();
    table.serviceOfDomain(host).then(
      (id) => (id === null ? other() : take(host, id)),
      (error: unknown) => {
        ctx.log.warn({ err: error, host }, 'custom domain look-up failed');
        other();
      },
    );
  };

  return {
    request: (request, response, pass) =>
      route(
        request,
        pass,
        (host) => proxy.refuseUnknown(request, response, host),
        (host, id) => proxy.handleRequest(request, response, host, id),
      ),
    upgrade: (request, socket, head, pass) =>
      route(
        request,
        pass,
        (host) => proxy.refuseUnknownUpgrade(socket, host),
        (host, id) => proxy.handleUpgrade(request, socket, head, host, id),
      ),
    close: () => {
      table.stop();
      proxy.close();
    },
  };
}

export const routingModule: AppModule = {
  name: 'routing',
  intercept: serviceRouting,
};
