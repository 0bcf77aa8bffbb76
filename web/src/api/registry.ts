import type { components } from './schema.js';

/** One definition per cache key: re-exported for this module's users. */
export { fieldsQuery } from './fields.js';
export { membersQuery } from './members.js';
export { statusesQuery } from './statuses.js';

export type Field = components['schemas']['Field'];
export type Status = components['schemas']['Status'];
export type Member = components['schemas']['Member'];
