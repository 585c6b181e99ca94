/**
 * Pages that make markdown parsers work for seconds (issue 13), shared by the
 * limit tests, the server tests and the hostile-markdown benchmark.
 */

/** The pages the audit found: each took 6-14 s to parse on the event loop. */
export const HOSTILE_PAGES = {
  /** 60 kB of nested link labels: quadratic in the depth. */
  brackets: `${'['.repeat(30_000)}x${']'.repeat(30_000)}`,
  /** A 600-level nested list, then lines that each of the 600 open items must consider. */
  nestedList: `${'- '.repeat(600)}deep\n${'lazy line\n'.repeat(6_000)}`,
  /** A 2,000-column table. */
  wideTable: `|${' c |'.repeat(2_000)}\n|${' --- |'.repeat(2_000)}\n${`|${' x |'.repeat(2_000)}\n`.repeat(10)}`,
};

/**
 * Within every limit (a one-level list, 100 kB) and still slow: micromark's work
 * grows with the square of the lazy continuation lines of a list item, and this
 * parse takes seconds. Only the parse pool's time budget stops this one.
 */
export const SLOW_BUT_WITHIN_LIMITS = `- item\n${'lazy\n'.repeat(20_000)}`;
