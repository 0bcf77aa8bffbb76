import { Link } from '@tanstack/react-router';

/** An address naming no organization of the signed-in person. */
export function OrgNotFound() {
  return (
    <div className="mx-auto mt-10 max-w-2xl">
      <h1 className="mb-2 text-2xl font-semibold">Organization not found</h1>
      <p>
        You are not a member of an organization at this address.{' '}
        <Link to="/" className="text-blue-700 underline dark:text-blue-300">
          Back to your workspaces and organizations
        </Link>
      </p>
    </div>
  );
}
