import { Link, useParams } from '@tanstack/react-router';

/** An address naming no workspace of the signed-in person. */
export function WorkspaceNotFound() {
  const { workspaceSlug } = useParams({ strict: false });
  return (
    <div className="mx-auto mt-10 max-w-2xl">
      <h1 className="mb-2 text-2xl font-semibold">Workspace not found</h1>
      <p>
        No workspace of yours has the address “{workspaceSlug}”.{' '}
        <Link to="/" className="text-blue-700 underline dark:text-blue-300">
          Back to your workspaces
        </Link>
      </p>
    </div>
  );
}
