import { useSyncExternalStore } from 'react';
import { useParams } from 'react-router';
import { organizationIdOf, splitWorkspace, workspacePath } from '../../shared/pages.ts';

/**
 * The workspace the dashboard acts in: the one its address names (`/o/<id>/…` for an organization,
 * no prefix for the personal one; shared/pages.ts). The api-client names it to the server in
 * X-Roster-Organization, so a session needs no organization key: the person's role there decides.
 * Route loaders set it from the address they load, before they ask for the page's data (the browser's
 * address changes only after them); the query cache is reset when it changes (lib/query-client.ts).
 */
interface WorkspaceState {
  organizationId: number | null;
  /** Why the dashboard left an organization's workspace (shown over the personal one until dismissed). */
  leftBecause: string | null;
}

const initial = typeof window === 'undefined' ? null : splitWorkspace(window.location.pathname).organizationId;
let state: WorkspaceState = { organizationId: initial, leftBecause: null };
const listeners = new Set<() => void>();
const switchListeners = new Set<() => void>();

function set(next: WorkspaceState) {
  const switched = next.organizationId !== state.organizationId;
  state = next;
  listeners.forEach((l) => l());
  if (switched) switchListeners.forEach((l) => l());
}

export const workspaceStore = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Called when the workspace changes (the query cache is reset: its data belongs to the other one). */
  onSwitch(listener: () => void) {
    switchListeners.add(listener);
    return () => switchListeners.delete(listener);
  },
  /** The address being loaded is in this workspace. */
  enter(organizationId: number | null) {
    if (organizationId === state.organizationId) return;
    // Going into an organization again is a new start: the last notice is about the previous one.
    set({ organizationId, leftBecause: organizationId === null ? state.leftBecause : null });
  },
  /**
   * The server no longer lets the person act in the organization (removed, or it is gone): the layout
   * takes them to their personal workspace and says why (app/layout/workspace-notice.tsx).
   */
  leave(organizationId: number) {
    if (state.organizationId !== organizationId) return;
    set({ ...state, leftBecause: 'You are no longer a member of that organization, so you are back in your personal workspace.' });
  },
  dismissNotice() {
    if (state.leftBecause !== null) set({ ...state, leftBecause: null });
  },
};

export function useWorkspaceState(): WorkspaceState {
  return useSyncExternalStore(workspaceStore.subscribe, workspaceStore.get, () => state);
}

/**
 * The workspace of the page on screen (its address), and `path(page)`: the address of another page in it
 * (`path('/projects')` is `/o/7/projects` in organization 7). Every link of a page goes through it.
 */
export function useWorkspace() {
  const { org } = useParams();
  const organizationId = organizationIdOf(org);
  return { organizationId, path: (page: string) => workspacePath(organizationId, page) };
}
