/** Exit statuses of the client commands. */
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

/** A failure the user can act on: its message is printed, without a stack. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number = EXIT_ERROR) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A bad argument: exit status 2, as commander's own parse errors. */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT_USAGE);
}
