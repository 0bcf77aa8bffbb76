import type { ReactNode } from 'react';

/** The members of a workspace or an organization: person, role, actions; a row each. */
export function MembersTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="text-zinc-600 dark:text-zinc-400">
        <tr>
          <th scope="col" className="py-2 font-medium">
            Person
          </th>
          <th scope="col" className="py-2 font-medium">
            Role
          </th>
          <th scope="col" className="py-2 font-medium">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
