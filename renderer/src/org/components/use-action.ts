import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../../api/client';
import { toast } from '../../ui/toast';

/**
 * Runs the API calls of a control: `busy` while one is under way (to disable the control), a
 * failure said in a toast (`<failure>: <why>`) and answered as undefined.
 */
export function useAction(): {
  busy: boolean;
  run: <T>(failure: string, call: () => Promise<T>) => Promise<T | undefined>;
} {
  const [busy, setBusy] = useState(false);
  // The control may be gone when the answer comes (a removed row): no state update then.
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const run = async <T>(failure: string, call: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    try {
      return await call();
    } catch (err) {
      toast(`${failure}: ${describeError(err)}`, 'error');
      return undefined;
    } finally {
      if (mounted.current) setBusy(false);
    }
  };
  return { busy, run };
}
