import { useRef } from 'preact/hooks';
import { useInterval } from '../ui/kit/hooks';

/** How often a screen asks again while a spec is processing (a fetch and a parse take seconds). */
export const POLL_MS = 1500;

/**
 * Calls `refresh` every POLL_MS while `active` (some spec shown is pending or in progress), and
 * never after the screen unmounts (useInterval's cleanup). A refresh still under way is not
 * started again, so a slow server never gets a queue of polls; a failed one is tried at the next
 * tick (the screen keeps showing what it has).
 */
export function useProcessingPoll(active: boolean, refresh: () => Promise<void>): void {
  const running = useRef(false);
  useInterval(
    () => {
      if (running.current) return;
      running.current = true;
      void refresh()
        .catch(() => undefined)
        .finally(() => {
          running.current = false;
        });
    },
    active ? POLL_MS : undefined,
  );
}
