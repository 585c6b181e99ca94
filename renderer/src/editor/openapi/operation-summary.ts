import type { SpecContent } from '../../openapi/openapi-api';

/**
 * The summary (else the first line of the description) of `method path` in a processed spec's
 * entry document. Pure: the card's text, tested without a server.
 */
export function operationSummary(content: SpecContent, path: string, method: string): string | undefined {
  const entry = Object.values(content.filesystem ?? {}).find((f) => f.isEntrypoint);
  const doc = entry?.specification;
  if (!isRecord(doc) || !isRecord(doc.paths)) return undefined;
  const item = doc.paths[path];
  if (!isRecord(item)) return undefined;
  const op = item[method.toLowerCase()];
  if (!isRecord(op)) return undefined;
  if (typeof op.summary === 'string' && op.summary.trim()) return op.summary.trim();
  if (typeof op.description === 'string') return op.description.trim().split('\n')[0] || undefined;
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
