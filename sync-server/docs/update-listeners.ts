import type { HubLogger, UpdateListener, UpdateOrigin } from './hub-types';

/**
 * The hub's subscribers to committed updates (revisions, caches). A failing
 * listener is logged and never stops the others or the fan-out.
 */
export class UpdateListeners {
  private readonly listeners = new Set<UpdateListener>();

  constructor(private readonly log: () => HubLogger) {}

  /** Adds a listener; returns the function that removes it. */
  add(listener: UpdateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls every listener with one committed update. */
  emit(name: string, update: Uint8Array, origin: UpdateOrigin): void {
    for (const listener of this.listeners) {
      try {
        listener(name, update, origin);
      } catch (err) {
        this.log().error({ err, doc: name }, 'sync: onUpdate listener failed');
      }
    }
  }
}
