import { useUserEvents } from '../hooks/use-user-events';

/** Keeps the signed-in user's event stream open while the app shows (renders nothing). */
export function UserEventsListener() {
  useUserEvents();
  return null;
}
