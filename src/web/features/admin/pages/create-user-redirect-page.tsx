import { Navigate } from 'react-router';

/** The old address of "Create a user" (before the Admin area): bookmarks and links still arrive. */
export function CreateUserRedirectPage() {
  return <Navigate to="/admin/users/new" replace />;
}
