import { refusalOf } from '../../../../api/errors.js';

/** A refusal of the spawn in words, placed on the branch field when it is about the branch. */
export function spawnRefusal(error: unknown): { message: string; field: string | undefined } {
  const refusal = refusalOf(error);
  if (refusal.code === 'not_found') {
    return {
      message:
        'You are not a member of this organization any more, or the project no longer exists.',
      field: undefined,
    };
  }
  if (refusal.code === 'insufficient_role') {
    return { message: 'Your role in this organization may not open workers.', field: undefined };
  }
  return { message: refusal.message, field: refusal.field };
}
