import { EVENT_TYPES, type EventType } from '../../events/types.js';
import { badRequest } from '../../http/errors.js';

/**
 * `eventTypes` patterns (spec: Webhooks 1): exactly `*`, a family such as
 * `item.*` (the part before the last dot of a known type), or an exact type.
 */
export function patternMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export function subscribes(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => patternMatches(pattern, type));
}

/** The known types a pattern selects; empty for a pattern of none of the three forms. */
export function typesOf(pattern: string): EventType[] {
  if (pattern !== '*' && !/^[a-z_]+(\.[a-z_]+)?$/.test(pattern) && !/^[a-z_]+\.\*$/.test(pattern)) {
    return [];
  }
  return EVENT_TYPES.filter((type) => patternMatches(pattern, type));
}

/** Checks the patterns (400 `unknown_event_type` naming the first that matches no type); dedupes them. */
export function checkPatterns(patterns: readonly string[]): string[] {
  for (const pattern of patterns) {
    if (typesOf(pattern).length === 0) {
      throw badRequest(
        'unknown_event_type',
        `"${pattern}" is not "*", a family such as "item.*", or a known event type`,
        { pattern },
      );
    }
  }
  return [...new Set(patterns)];
}
