import type { HubLogger, UpdateListener } from './hub-types';
import type { UpdateOrigin } from './live-doc';

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
