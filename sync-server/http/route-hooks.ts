import type { RouteOptions } from 'fastify';

/** The hook phases whose per-route hooks Folio adds from onRoute (auth, rate limits, metrics). */
type Phase = 'onRequest' | 'preParsing';

/**
 * Puts `hook` first among a route's own `phase` hooks, from an onRoute hook:
 * decided once per route, so requests to other routes never run it. Fastify
 * (5.x) hands each route, a GET's HEAD twin included, options of its own;
 * the hook still goes in a new array and at most once, so options shared by
 * another version of Fastify could neither leak it to other routes nor run
 * it twice.
 */
export function prependRouteHook<K extends Phase>(
  route: RouteOptions,
  phase: K,
  hook: NonNullable<RouteOptions[K]> extends infer H ? (H extends readonly (infer E)[] ? E : H) : never,
): void {
  const given = route[phase] as unknown;
  const own: unknown[] = given === undefined ? [] : Array.isArray(given) ? given : [given];
  if (!own.includes(hook)) (route as unknown as Record<Phase, unknown[]>)[phase] = [hook, ...own];
}
