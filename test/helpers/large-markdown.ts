/**
 * Big, realistic pages for the large-batch test and bench of
 * updateChangeRequestContent: prose paragraphs, headings, lists, inline code,
 * fenced code and links (to other pages by id, and to the web), ~160 kB each.
 * Deterministic (seeded), so a run is repeatable.
 */

const WORDS = (
  'the a of to and in is it that for on with as by this be are from or an at which you not can will ' +
  'server client page space change request document revision merge branch token cache index query ' +
  'writer reader editor socket update commit batch diff text word block heading list table link file ' +
  'install configure deploy restart monitor scale backup restore migrate upgrade verify inspect report'
).split(' ');

/** A small seeded PRNG (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rand: () => number, links: readonly string[]): string {
  const n = 6 + Math.floor(rand() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    const w = WORDS[Math.floor(rand() * WORDS.length)]!;
    if (r < 0.02 && links.length > 0) words.push(`[${w}](/pages/${links[Math.floor(rand() * links.length)]})`);
    else if (r < 0.03) words.push(`[${w}](https://example.com/docs/${w}-${Math.floor(rand() * 1000)})`);
    else if (r < 0.05) words.push(`\`${w}()\``);
    else if (r < 0.07) words.push(`**${w}**`);
    else words.push(w);
  }
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

function paragraph(rand: () => number, links: readonly string[]): string {
  const n = 3 + Math.floor(rand() * 5);
  return Array.from({ length: n }, () => sentence(rand, links)).join(' ');
}

/** The blocks of one generated page (joined with blank lines, they are its markdown). */
export function pageBlocks(seed: number, targetChars: number, links: readonly string[] = []): string[] {
  const rand = seeded(seed);
  const blocks: string[] = [];
  let size = 0;
  let section = 0;
  while (size < targetChars) {
    const r = rand();
    let block: string;
    if (r < 0.08) block = `## Section ${++section}: ${sentence(rand, []).slice(0, -1)}`;
    else if (r < 0.16)
      block = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => `- ${sentence(rand, links)}`).join('\n');
    else if (r < 0.2)
      block = [
        '```ts',
        ...Array.from({ length: 3 + Math.floor(rand() * 6) }, (_, i) => `const v${i} = run(${i});`),
        '```',
      ].join('\n');
    else block = paragraph(rand, links);
    blocks.push(block);
    size += block.length + 2;
  }
  return blocks;
}

/** A generated page of about `targetChars` characters (ends with a new line). */
export function largePage(seed: number, targetChars: number, links: readonly string[] = []): string {
  return pageBlocks(seed, targetChars, links).join('\n\n') + '\n';
}

/**
 * An edited version of a generated page, as a writer would change it: about
 * one word in `editEvery` paragraphs reworded, some paragraphs dropped, some
 * added, and `extraChars` more text at the end.
 */
export function editedPage(
  seed: number,
  targetChars: number,
  links: readonly string[] = [],
  { editEvery = 3, extraChars = 0 } = {},
): string {
  const rand = seeded(seed * 7919 + 1);
  const out: string[] = [];
  for (const [i, block] of pageBlocks(seed, targetChars, links).entries()) {
    if (block.startsWith('```') || block.startsWith('## ')) {
      out.push(block);
      continue;
    }
    if (i % (editEvery * 7) === 5) continue; // dropped
    if (i % editEvery === 0) {
      const words = block.split(' ');
      const at = Math.floor(rand() * words.length);
      if (!words[at]!.includes('](')) words[at] = `edited${i}`;
      out.push(words.join(' '));
    } else out.push(block);
    if (i % (editEvery * 5) === 2) out.push(paragraph(rand, links)); // added
  }
  if (extraChars > 0) out.push(...pageBlocks(seed + 100_000, extraChars, links));
  return out.join('\n\n') + '\n';
}
