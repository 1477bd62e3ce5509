import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/** The old address of "Create a user" (before the Admin area): bookmarks and links still arrive. */
export function CreateUserRedirectPage() {
  const navigate = useNavigate();
  // In an effect, not <Navigate>: the server renders the first screen of this address too.
  useEffect(() => void navigate('/admin/users/new', { replace: true }), [navigate]);
  return null;
}
