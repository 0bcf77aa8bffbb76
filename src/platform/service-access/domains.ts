import { Resolver } from 'node:dns/promises';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import type { DomainChallenge } from '../services/access-settings.js';

/** How long one DNS server has to answer, and how often it is asked. */
const DNS_TIMEOUT_MS = 3000;
const DNS_TRIES = 2;

function resolverOf(config: Config): Resolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  if (config.dnsServers.length > 0) resolver.setServers([...config.dnsServers]);
  return resolver;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Looks up the challenge's TXT record with the DNS servers of DNS_SERVERS
 * (the system's when unset). Throws 422 `domain_challenge_missing` when no
 * TXT record is published under the name, 422 `domain_challenge_mismatch`
 * when none holds the value, 502 `dns_unavailable` when the servers fail.
 */
export async function checkChallenge(config: Config, challenge: DomainChallenge): Promise<void> {
  let records: string[][];
  try {
    records = await resolverOf(config).resolveTxt(challenge.recordName);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOTFOUND' || code === 'ENODATA') {
      throw new AppError(
        'domain_challenge_missing',
        `No TXT record is published at ${challenge.recordName}`,
        { recordName: challenge.recordName, value: challenge.value },
      );
    }
    throw new AppError('dns_unavailable', 'The DNS servers did not answer; try again later', {
      reason: code ?? String(error),
    });
  }
  // A long TXT value may come in several strings: they form one value.
  const values = records.map((chunks) => chunks.join(''));
  if (!values.includes(challenge.value)) {
    throw new AppError(
      'domain_challenge_mismatch',
      `The TXT record at ${challenge.recordName} does not hold the expected value`,
      { recordName: challenge.recordName, value: challenge.value, found: values.slice(0, 10) },
    );
  }
}
