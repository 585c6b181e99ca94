/**
 * IPC channel names, shared by the main process and the preload. Kept apart from the
 * handlers so the sandboxed preload bundles nothing but these strings.
 */

/** Every IPC channel of the app starts with this (`folio:settings:get`, `folio:menu`, ...). */
export const IPC_PREFIX = 'folio';

/** Main -> renderer: a MenuAction chosen in the application menu. */
export const MENU_CHANNEL = `${IPC_PREFIX}:menu`;

/** The command-line switch that tells the preload which handlers exist. */
export const HANDLERS_SWITCH = `--${IPC_PREFIX}-handlers=`;

/** The handlers' names by namespace, e.g. `{ settings: ['get', 'update'], ... }`. */
export type HandlerDescription = Record<string, string[]>;

/** The IPC channel for one handler. */
export function channelName(namespace: string, method: string): string {
  return `${IPC_PREFIX}:${namespace}:${method}`;
}

/** Reads the handler description main passed in `argv` (see `handlersSwitch`); empty when absent or malformed. */
export function readHandlerDescription(argv: readonly string[]): HandlerDescription {
  const arg = argv.find((a) => a.startsWith(HANDLERS_SWITCH));
  if (!arg) return {};
  try {
    const parsed: unknown = JSON.parse(arg.slice(HANDLERS_SWITCH.length));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const entries = Object.entries(parsed).filter(
      (entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[1].every((m) => typeof m === 'string'),
    );
    return Object.fromEntries(entries);
  } catch {
    return {};
  }
}
