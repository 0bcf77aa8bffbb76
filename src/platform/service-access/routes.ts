import Type from 'typebox';
import { resolveSession } from '../../accounts/service.js';
import { inTransaction } from '../../db/transaction.js';
import { SESSION_COOKIE } from '../../http/auth.js';
import { AppError, forbidden, notFound, unauthorized } from '../../http/errors.js';
import { Strict, Uuid } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { WEB_APP_PREFIX } from '../../web/routes.js';
import { orgRoutes } from '../access/org-route.js';
import { getMembership } from '../orgs/service.js';
import { hostName, serviceIdOfHost } from '../routing/hosts.js';
import { checkedReturnUrl, serviceHost } from '../routing/service-hosts.js';
import {
  domainChallenge,
  markDomainVerified,
  serviceAccessSettings,
  serviceByVerifiedDomain,
} from '../services/access-settings.js';
import { Service, ServiceParams } from '../services/schemas.js';
import { CALLBACK_PATH } from './access.js';
import { issueCode } from './browser-sessions.js';
import { checkChallenge } from './domains.js';
import { personRefusal, REFUSAL_MESSAGES } from './policy.js';

const AccessQuery = Strict({
  return: Type.String({
    minLength: 1,
    maxLength: 4000,
    description: "The URL on the service's own host to open after sign-in.",
  }),
  state: Type.String({
    pattern: '^[A-Za-z0-9_-]{16,128}$',
    description: "The sign-in's state, also held in a cookie on the service's domain.",
  }),
});

const DomainQuery = Strict({
  domain: Type.String({ minLength: 1, maxLength: 253, description: 'The host name asked about.' }),
});

const DomainAnswer = Type.Object(
  {
    domain: Type.String(),
    kind: Type.Enum(['api', 'service', 'custom']),
    serviceId: Type.Union([Uuid, Type.Null()]),
  },
  { title: 'DomainCheck' },
);

export function serviceAccessRoutes(router: Router, ctx: AppContext): void {
  const { route, plain } = orgRoutes(router, ctx, ['Deployments']);

  plain({
    method: 'GET',
    url: '/services/:serviceId/access',
    key: 'public',
    operationId: 'openPrivateService',
    summary: 'Browser sign-in to a private service',
    description:
      "Where a private service's URL sends a browser without a session on its domain. The platform's " +
      '`session` cookie says who it is. Without one, a browser (an `Accept` with `text/html`) is sent ' +
      '(302) to the web app’s sign-in screen, `/app/sign-in?redirect=` with this very address (path and ' +
      'query) encoded, where the person signs in with their password or, when one is configured, with the ' +
      'identity provider; the screen then opens this address again. Any other caller is answered 401 ' +
      '`sign_in_required`. A member of the organization may pass (when the service has an allowlist, ' +
      'only the members on it): the browser is sent (302) to `/__sparrow/callback` on the service’s ' +
      'host with a one-time code, good for 60 seconds, which the service’s domain exchanges for its own ' +
      'HttpOnly session cookie (`sparrow_access`, scoped to that one service) before going on to ' +
      '`return`. No session token ever travels in a URL. `return` must be on the service’s own host ' +
      '(its `svc-` host or its verified custom domain): 400 `invalid_return_url` otherwise.',
    params: Strict({ serviceId: Uuid }),
    querystring: AccessQuery,
    security: [{ sessionCookie: [] }],
    response: Type.Null({ description: 'Redirect to the service (or to sign in).' }),
    status: 302,
    errors: [
      'not_found',
      'invalid_return_url',
      'sign_in_required',
      'not_in_organization',
      'not_on_allowlist',
    ],
    handler: async (request, reply) => {
      const { serviceId } = request.params;
      const settings = await serviceAccessSettings(ctx.db, serviceId);
      if (settings === undefined) throw notFound('Service');
      const hosts = [serviceHost(ctx.config, serviceId)];
      if (settings.verifiedDomain !== null) hosts.push(settings.verifiedDomain);
      const target = checkedReturnUrl(request.query.return, hosts);
      if (target === undefined) {
        throw new AppError(
          'invalid_return_url',
          "The return URL must be on the service's own host",
        );
      }
      const token = request.cookies[SESSION_COOKIE];
      const person = token === undefined ? null : await resolveSession(ctx.db, token);
      if (person === null) {
        // One sign-in screen for every door (password, identity provider): it comes back here.
        if ((request.headers.accept ?? '').includes('text/html')) {
          reply.header('cache-control', 'no-store');
          const back = encodeURIComponent(request.url);
          return reply.redirect(`${WEB_APP_PREFIX}sign-in?redirect=${back}`, 302);
        }
        throw unauthorized(
          'sign_in_required',
          `Sign in first (POST /api/auth/login sets the session cookie), then open ${request.url} again`,
        );
      }
      const member = await getMembership(ctx.db, settings.orgId, person.userId);
      const refusal = personRefusal(settings, person.userId, member !== undefined);
      if (refusal !== null) {
        throw forbidden(
          refusal.code === 'not_in_organization' ? 'not_in_organization' : 'not_on_allowlist',
          refusal.code === 'not_in_organization'
            ? REFUSAL_MESSAGES.not_in_organization
            : 'You are not on the allowlist of this private service',
        );
      }
      const returnTo = `${target.pathname}${target.search}`;
      const code = await issueCode(ctx.db, {
        serviceId,
        userId: person.userId,
        sessionId: person.sessionId,
        state: request.query.state,
        returnTo,
      });
      const location = new URL(`${target.origin}${CALLBACK_PATH}`);
      location.searchParams.set('code', code);
      location.searchParams.set('return', returnTo);
      return reply.redirect(location.toString(), 302);
    },
  });

  plain({
    method: 'GET',
    url: '/routing/domain-check',
    key: 'public',
    operationId: 'checkDomain',
    summary: 'Whether this server answers for a host name (for on-demand TLS)',
    description:
      'For a TLS terminator that issues certificates on demand (Caddy’s `on_demand_tls { ask … }`): ' +
      '200 for the API’s own host (PUBLIC_URL), for `svc-{serviceId}.{SERVICE_DOMAIN}` of an existing ' +
      'service and for a verified custom domain; 404 `domain_unknown` for anything else, so no ' +
      'certificate is requested for a name nobody here serves.',
    querystring: DomainQuery,
    response: DomainAnswer,
    errors: ['domain_unknown'],
    handler: async (request) => {
      const domain = hostName(request.query.domain);
      const unknown = () =>
        new AppError('domain_unknown', 'No service answers at this domain', {
          domain: request.query.domain,
        });
      if (domain === null) throw unknown();
      if (domain === hostName(new URL(ctx.config.publicUrl).host)) {
        return { domain, kind: 'api' as const, serviceId: null };
      }
      const serviceId = serviceIdOfHost(domain, ctx.config.serviceUrls.domain);
      if (serviceId !== null) {
        if ((await serviceAccessSettings(ctx.db, serviceId)) === undefined) throw unknown();
        return { domain, kind: 'service' as const, serviceId };
      }
      const custom = await serviceByVerifiedDomain(ctx.db, domain);
      if (custom === undefined) throw unknown();
      return { domain, kind: 'custom' as const, serviceId: custom.id };
    },
  });

  route({
    method: 'POST',
    url: '/orgs/:orgId/deployments/:deploymentId/services/:serviceId/verify-domain',
    key: ['deployments:write'],
    permission: 'deployments.write',
    transaction: false,
    operationId: 'verifyServiceDomain',
    summary: "Verify a service's custom domain",
    description:
      'Looks up the TXT record the service shows in `customDomain.challenge` (name ' +
      '`_sparrow-challenge.{domain}`, value the challenge token) with the DNS servers of `DNS_SERVERS` ' +
      '(the system’s by default). When it holds the value the domain is marked verified and the service ' +
      'answers there (routing and on-demand TLS); verifying a verified domain again changes nothing. ' +
      '422 `domain_challenge_missing` when no TXT record is published, 422 `domain_challenge_mismatch` ' +
      'when none holds the value, 409 `no_custom_domain` without a domain, 502 `dns_unavailable` when ' +
      'the DNS servers fail. Changing `customDomain` later starts verification over.',
    params: ServiceParams,
    response: Service,
    errors: [
      'no_custom_domain',
      'domain_changed',
      'domain_challenge_missing',
      'domain_challenge_mismatch',
      'dns_unavailable',
    ],
    handler: async (db, access, request) => {
      const { deploymentId, serviceId } = request.params;
      const challenge = await domainChallenge(db, access, deploymentId, serviceId);
      if (!challenge.verified) await checkChallenge(ctx.config, challenge);
      return inTransaction(ctx.db, (trx) =>
        markDomainVerified(trx, ctx.config, access, deploymentId, serviceId, challenge),
      );
    },
  });
}
