/**
 * GitBook's OpenAPISpecSlug, as the server checks it (sync-server/api/openapi-specs/schemas.ts:
 * SPEC_SLUG_PATTERN, 1–100 characters). The renderer may not import the server, so it is repeated
 * here to say what is wrong before a request is sent; the server's 400 stays the authority.
 */
const SLUG = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;
export const MAX_SLUG = 100;

/** Why `slug` is refused, or undefined when it is valid. */
export function slugProblem(slug: string): string | undefined {
  if (!slug) return 'Enter a slug.';
  if (slug.length > MAX_SLUG) return `A slug has at most ${MAX_SLUG} characters.`;
  if (!SLUG.test(slug))
    return 'Use letters, digits and single hyphens between them (e.g. petstore-v2): no spaces, no hyphen at either end.';
  return undefined;
}

/** A slug suggested from a URL or file name ("Pet Store.v2.yaml" → "Pet-Store-v2"). */
export function suggestSlug(name: string): string {
  const last =
    name
      .split(/[/\\?#]/)
      .filter(Boolean)
      .pop() ?? '';
  return last
    .replace(/\.(json|ya?ml)$/i, '')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
}
