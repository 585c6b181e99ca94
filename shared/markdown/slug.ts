/**
 * Slugs for page paths and heading anchors. Both are ASCII-only because
 * GitBook constrains heading ids to `^[-a-z0-9.+_]+$` and page slugs end up
 * in URLs; accented letters are folded (é -> e) rather than dropped.
 */

/** Longest page slug GitBook accepts (RevisionPageSlug maxLength). */
export const MAX_SLUG_LENGTH = 100;

/**
 * `"Getting Started!"` -> `"getting-started"`: lowercase ASCII letters and
 * digits separated by single dashes, at most `max` characters, possibly
 * empty (callers pick the fallback). Idempotent: a valid slug maps to itself.
 */
export function slugify(text: string, max = MAX_SLUG_LENGTH): string {
  const folded = text
    .normalize('NFKD')
    // Combining marks left by NFKD (the accent of "é").
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const slug = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return slug.length <= max ? slug : slug.slice(0, max).replace(/-+$/, '');
}

/**
 * `base` made unique against `taken` by appending `-2`, `-3`, ... while
 * staying within `max` characters (the base is shortened, not the suffix).
 */
export function uniqueSlug(base: string, taken: (slug: string) => boolean, max = MAX_SLUG_LENGTH): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const head = base.slice(0, max - suffix.length).replace(/-+$/, '');
    const candidate = `${head}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * Heading anchors unique within one page, GitHub-style: the second
 * "Install" heading gets `install-1`. Headings without any ASCII letter or
 * digit get `section`, so every heading stays linkable.
 */
export class AnchorSlugger {
  private readonly seen = new Map<string, number>();

  /** The anchor of the next heading with this plain-text title. */
  slug(title: string): string {
    const base = slugify(title) || 'section';
    let count = this.seen.get(base);
    if (count === undefined) {
      this.seen.set(base, 0);
      return base;
    }
    // Skip candidates a literal heading already produced ("a-1" then "a", "a").
    let candidate: string;
    do {
      count++;
      candidate = `${base}-${count}`;
    } while (this.seen.has(candidate));
    this.seen.set(base, count);
    this.seen.set(candidate, 0);
    return candidate;
  }
}
