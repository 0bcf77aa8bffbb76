export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Source of randomness in [0, 1); replaceable for tests. */
  random?: () => number;
}

/**
 * Exponential backoff with jitter: attempt n waits a random time between half
 * and all of min(max, initial * 2^n), so agents that lost the server together
 * do not all come back in the same instant.
 */
export class Backoff {
  private attempt = 0;

  constructor(private readonly options: BackoffOptions) {}

  next(): number {
    const ceiling = Math.min(this.options.maxMs, this.options.initialMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    const random = this.options.random ?? Math.random;
    return Math.round(ceiling / 2 + (ceiling / 2) * random());
  }

  reset(): void {
    this.attempt = 0;
  }
}
