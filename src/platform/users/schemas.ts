import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { Extensions, GitUrl } from '../common/schemas.js';

export const MAX_USER_SECRETS = 100;

export const UserMe = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Type.String(),
    createdAt: Timestamp,
    dotfilesRepo: Type.Union([Type.String(), Type.Null()], {
      description: 'A repository of dotfiles, cloned into each of your workers; null: none.',
    }),
    extensions: Type.Array(Type.String(), {
      description: "Editor extensions installed in each of your workers, on top of the project's.",
    }),
  },
  { title: 'UserMe', description: 'The signed-in account with its platform settings.' },
);
export type UserMe = Static<typeof UserMe>;

const Blank = Type.String({ maxLength: 256, pattern: '^\\s*$' });

export const UpdateMeBody = Strict(
  {
    dotfilesRepo: Type.Optional(
      Type.Union([GitUrl, Blank, Type.Null()], {
        description: 'A git URL; an empty or whitespace-only string (or null) clears it to null.',
      }),
    ),
    extensions: Type.Optional(Extensions),
  },
  {
    title: 'UpdateMe',
    description: 'Only the fields sent change; an omitted field is never erased.',
  },
);
export type UpdateMeBody = Static<typeof UpdateMeBody>;

export const UserSecretParams = Strict({ secretId: Uuid });
