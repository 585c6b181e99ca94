import { performance } from 'node:perf_hooks';
import * as Y from 'yjs';
import { ContentDoc, Materializer } from '../../shared/doc';
import { forkUpdate, hasChangesFor, missingUpdate, pullInto } from '../../sync-server/docs/fork-merge';
import { buildSpace } from './materialize';
import type { BenchOutcome } from './http-load';

/**
 * Merging a change request with 1,000 edits into a 1,000-page space that got
 * 1,000 concurrent edits meanwhile (the merge functions the routes call, on
 * Y.Docs, no server): time of the merge (diff + apply), of update-from-main,
 * of the `outdated` check, sizes of the update and of the resulting document,
 * and the time to materialize the merged content.
 */
export const name = 'merge';

const EDITS = 1_000;

/** Deterministic PRNG (mulberry32), so runs compare. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` edits on random pages: mostly inserts, some deletions, a few new pages. */
function edit(doc: Y.Doc, ids: string[], count: number, seed: number, tag: string): string[] {
  const content = new ContentDoc(doc);
  const rand = prng(seed);
  const markers: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = rand();
    if (r < 0.05) {
      content.createPage({ title: `${tag} new ${i}`, markdown: `${tag}-page-${i}\n` });
      continue;
    }
    const body = content.pageBody(ids[Math.floor(rand() * ids.length)]!);
    if (r < 0.2 && body.length > 20) {
      body.delete(Math.floor(rand() * (body.length - 10)), 5);
    } else {
      const marker = ` ${tag}${i} `;
      body.insert(Math.floor(rand() * (body.length + 1)), marker);
      markers.push(marker);
    }
  }
  return markers;
}

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const { doc: space, content } = buildSpace();
  const ids = content.listPageIds();
  const baseBytes = Y.encodeStateAsUpdate(space).byteLength;

  let t0 = performance.now();
  const fork = new Y.Doc();
  Y.applyUpdate(fork, forkUpdate(space));
  const forkMs = ms(t0);

  const crMarkers = edit(fork, ids, EDITS, 11, 'cr');
  const mainMarkers = edit(space, ids, EDITS, 23, 'main');

  t0 = performance.now();
  const outdated = hasChangesFor(space, fork);
  const outdatedMs = ms(t0);

  t0 = performance.now();
  const mergeUpdate = missingUpdate(fork, space);
  const diffMs = ms(t0);
  t0 = performance.now();
  Y.applyUpdate(space, mergeUpdate);
  const applyMs = ms(t0);

  t0 = performance.now();
  const updateBytes = pullInto(fork, space).byteLength;
  const updateMs = ms(t0);

  t0 = performance.now();
  new Materializer(space).snapshot();
  const materializeMs = ms(t0);

  const mergedBytes = Y.encodeStateAsUpdate(space).byteLength;
  const merged = new ContentDoc(space);
  const all = merged
    .listPageIds()
    .map((id) => merged.getMarkdown(id))
    .join('\n');
  // Deletions may cut a marker; count survivors rather than require all.
  const survived = [...crMarkers, ...mainMarkers].filter((m) => all.includes(m)).length;
  if (!outdated) problems.push('the fork was not reported outdated after concurrent space edits');
  if (hasChangesFor(space, fork) || hasChangesFor(fork, space))
    problems.push('space and fork differ after merge + update');
  if (survived < (crMarkers.length + mainMarkers.length) * 0.8) problems.push(`only ${survived} inserts survived`);

  console.table({
    pages: { value: merged.listPageIds().length },
    'fork (ms)': { value: forkMs },
    'outdated check (ms)': { value: outdatedMs },
    'merge: diff (ms)': { value: diffMs },
    'merge: apply to space (ms)': { value: applyMs },
    'merge total (ms)': { value: Math.round((diffMs + applyMs) * 100) / 100 },
    'update-from-main (ms)': { value: updateMs },
    'materialize merged (ms)': { value: materializeMs },
    'merge update (KiB)': { value: Math.round(mergeUpdate.byteLength / 102.4) / 10 },
    'update-from-main update (KiB)': { value: Math.round(updateBytes / 102.4) / 10 },
    'space doc before (KiB)': { value: Math.round(baseBytes / 102.4) / 10 },
    'space doc after merge (KiB)': { value: Math.round(mergedBytes / 102.4) / 10 },
    'inserts surviving (of 2 sides)': { value: `${survived}/${crMarkers.length + mainMarkers.length}` },
  });
  return { ok: problems.length === 0, problems };
}
