import type { RootContent } from 'mdast';
import { analyzeMarkdown, type MarkdownAnalysis } from '../../shared/markdown/analyze';
import { markdownToDocument } from '../../shared/markdown/to-document';
import type { MarkdownBlock } from '../../shared/markdown/block-keys';
import { splitBlocks } from '../../shared/markdown/block-split';
import type { JSONDocument } from '../../shared/markdown/document-types';
import { parseMarkdown } from '../../shared/markdown/parse';
import { segmentationOf, type MarkdownSegmentation } from '../../shared/markdown/translation/markdown-segments';
import { renderSiteBody, type SiteBody } from './site-html';
import { encodeEdits, wordEdits } from '../../shared/doc/word-edits';

/**
 * The markdown work the server hands to its parse pool, one function per
 * use: search and link analysis, GitBook documents (REST `format=document`,
 * comment bodies), published-site HTML, PDF blocks and translation segments. These run inside a
 * worker thread (worker.ts); they are plain functions so they can be tested
 * and benchmarked on their own.
 */

/** mdast blocks of a page without source positions (what the PDF renderer reads). */
export interface PdfBlocks {
  blocks: RootContent[];
}

/** The top-level blocks of a page, with their spans and keys (revert_page's `block` form). */
export interface PageBlocks {
  blocks: MarkdownBlock[];
}

/** What each kind of task produces. */
export interface TaskOutputs {
  analysis: MarkdownAnalysis;
  document: JSONDocument;
  site: SiteBody;
  pdf: PdfBlocks;
  blocks: PageBlocks;
  segments: MarkdownSegmentation;
}

/** The kinds of markdown work. */
export type TaskKind = keyof TaskOutputs;

/** One piece of work: a kind and the markdown text. */
export interface MarkdownTask {
  kind: TaskKind;
  markdown: string;
}

/**
 * Not markdown, but the same kind of CPU-bound work that must stay off the
 * event loop: the word-level edits between two versions of a page body
 * (updateChangeRequestContent), within `budgetMs` from when the worker
 * begins it (past it, the rest is one span per changed region).
 */
export interface DiffTask {
  kind: 'diff';
  current: string;
  next: string;
  budgetMs: number;
}

/** The edits of a DiffTask as `encodeEdits` numbers (the inserted text is the caller's `next`), and the time taken. */
export interface DiffResult {
  value: { edits: number[]; ms: number };
  weight: number;
}

/** Every task a pool worker runs. */
export type PoolTask = MarkdownTask | DiffTask;

/** Runs a DiffTask on the calling thread (the worker's). */
export function runDiffTask(task: DiffTask): DiffResult {
  const t0 = performance.now();
  const edits = encodeEdits(wordEdits(task.current, task.next, Date.now() + task.budgetMs));
  return { value: { edits, ms: performance.now() - t0 }, weight: edits.length };
}

/** A task's result and its approximate size (for the result cache's byte budget). */
export interface TaskResult<K extends TaskKind = TaskKind> {
  value: TaskOutputs[K];
  weight: number;
}

function withoutPositions<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutPositions) as T;
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (k !== 'position') out[k] = withoutPositions(v);
    return out as T;
  }
  return node;
}

/** Runs one task on the calling thread (the worker's). */
export function runTask(task: MarkdownTask): TaskResult {
  switch (task.kind) {
    case 'analysis': {
      const value = analyzeMarkdown(task.markdown);
      return { value, weight: JSON.stringify(value).length };
    }
    case 'document': {
      const value = markdownToDocument(task.markdown, { blockKeys: true });
      return { value, weight: JSON.stringify(value).length };
    }
    case 'site': {
      const value = renderSiteBody(task.markdown);
      return { value, weight: value.html.length + value.links.reduce((n, l) => n + l.length, 0) };
    }
    case 'pdf': {
      const value = { blocks: withoutPositions(parseMarkdown(task.markdown).children) };
      return { value, weight: JSON.stringify(value).length };
    }
    case 'blocks': {
      const value = { blocks: splitBlocks(task.markdown) };
      return { value, weight: 40 * value.blocks.length + 100 };
    }
    case 'segments': {
      // Too deeply nested to parse is an answer (the page is kept untranslated), not a failed task.
      const value = segmentationOf(task.markdown);
      return { value, weight: JSON.stringify(value).length };
    }
  }
}
