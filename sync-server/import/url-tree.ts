/**
 * The page tree of a website import, from URL paths: a page's parent is the imported page with the
 * longest path that is a proper prefix of its own (`/guide` holds `/guide/install`); the site's
 * root page (`/`) is everyone's prefix, so it parents nothing and stays the first top-level page.
 * Answers, for each URL, the index of its parent in `urls` (undefined: top level).
 */
export function pagesByUrlPath(urls: readonly string[]): (number | undefined)[] {
  const segments = urls.map((u) =>
    new URL(u).pathname
      .replace(/\/index\.html?$/i, '')
      .split('/')
      .filter(Boolean),
  );
  return segments.map((mine) => {
    let best: number | undefined;
    let bestLength = 0;
    segments.forEach((other, j) => {
      if (other.length === 0 || other.length >= mine.length || other.length <= bestLength) return;
      if (other.every((s, k) => s === mine[k])) {
        best = j;
        bestLength = other.length;
      }
    });
    return best;
  });
}
