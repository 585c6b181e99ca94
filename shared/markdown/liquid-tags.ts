/**
 * GitBook's liquid block tags as its Git Sync writes them (`{% hint style="info" %}`,
 * `{% endhint %}`, `{% tabs %}`, `{% tab title="…" %}`, `{% embed url="…" %}`,
 * `{% content-ref url="…" %}`, `{% file src="…" %}`, `{% code title="…" %}`), each on a
 * line of its own. One grammar for the published site's renderer and the app's reading
 * view and diff (the live-preview editor reads the same tags line by line, with positions).
 * OpenAPI operation blocks (`{% openapi-operation %}`, `{% openapi %}`, `{% swagger %}`) are not
 * among these: they are drawn from a spec, not from their content, and have a grammar of their
 * own (openapi-block.ts) that the published site and the document conversion read.
 */

/** A tag line: `{% [end]name attr="value" … %}`. */
export interface LiquidTag {
  end: boolean;
  name: string;
  attrs: Record<string, string>;
}

const TAG_LINE = /^[ \t]*\{%-?\s*(end)?(hint|tabs|tab|embed|content-ref|file|code)\b([^%]*)-?%\}[ \t]*$/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

/**
 * Follows fenced code blocks line by line, for the scanners that must not read a tag inside code:
 * each call answers 'fence' for a fence line, 'code' inside a fenced block, 'prose' outside.
 */
export function fenceTracker(): (line: string) => 'fence' | 'code' | 'prose' {
  let fence: string | undefined;
  return (line) => {
    const f = FENCE.exec(line)?.[1];
    if (f) {
      if (!fence) fence = f;
      else if (f[0] === fence[0] && f.length >= fence.length) fence = undefined;
      return 'fence';
    }
    return fence ? 'code' : 'prose';
  };
}

/** The `name="value"` attributes of a tag (or of an HTML tag's attribute text). */
export function liquidAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of text.matchAll(/([\w-]+)\s*=\s*"([^"]*)"/g)) attrs[m[1]!] = m[2]!;
  return attrs;
}

/** The tag a line holds, if it is a block tag line. */
export function parseLiquidTagLine(line: string): LiquidTag | undefined {
  const m = TAG_LINE.exec(line);
  return m ? { end: m[1] === 'end', name: m[2]!, attrs: liquidAttributes(m[3] ?? '') } : undefined;
}

/** Puts blank lines around tag lines (outside code fences), so each tag parses as a paragraph of its own. */
export function separateLiquidTags(markdown: string): string {
  if (!markdown.includes('{%')) return markdown;
  const where = fenceTracker();
  const out: string[] = [];
  for (const line of markdown.split('\n')) {
    if (where(line) === 'prose' && TAG_LINE.test(line)) out.push('', line.trim(), '');
    else out.push(line);
  }
  return out.join('\n');
}
