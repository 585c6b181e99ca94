import { slugify, uniqueSlug } from '../../shared/markdown/slug';
import type { ComputedOpenApiSource } from '../../shared/doc/computed';
import type { OperationEntry, SpecOutline, TagEntry } from '../openapi-specs/outline';
import { derivedId } from './derived-ids';

/**
 * The pages GitBook's `builtin:openapi` computed source generates, from a spec's outline: one page
 * per tag (its operations as `{% openapi-operation %}` blocks, which the published site draws from
 * the spec's latest version), or with `grouping: by-operation` a page per operation under its
 * tag's page, plus a "Models" page when `props.models` is set. The overview (what the computed page
 * itself shows) introduces the API and links to them. Pure: the same outline, source and seed give
 * the same pages, with the same ids.
 */

export interface GeneratedPage {
  id: string;
  title: string;
  slug: string;
  description?: string;
  markdown: string;
  pages: GeneratedPage[];
}

export interface GeneratedContent {
  /** The overview's markdown (the computed page's own body once expanded). */
  overview: string;
  /** The generated pages, in reading order. */
  pages: GeneratedPage[];
}

export interface GenerateOptions {
  source: ComputedOpenApiSource;
  /** Seed of the ids: the computed page's id (getComputedRevision: the caller's). */
  seed: string;
  outline: SpecOutline;
  /** Where the raw spec can be downloaded (public specs), shown when `props.downloadLink` is set. */
  downloadUrl?: string;
}

/** Markdown on one line (titles and summaries go into headings and link texts). */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
/** Link text with the characters that would end or break it escaped. */
const linkText = (s: string) => oneLine(s).replace(/([\\[\]])/g, '\\$1');
const firstSentence = (s: string) => oneLine(s.split(/\n\s*\n/)[0] ?? '').slice(0, 300);

/** A path that fits in a block attribute (GitBook's form has no escaping). */
const blockable = (op: OperationEntry) => !/["`\n\r%]/.test(op.path);

const operationTitle = (op: OperationEntry) => op.summary ?? `${op.method.toUpperCase()} ${op.path}`;

function operationBlock(spec: string, op: OperationEntry): string {
  return `{% openapi-operation spec="${spec}" path="${op.path}" method="${op.method}" %}\n{% endopenapi-operation %}`;
}

/** A heading (so the page outline lists the operations) and the operation's block. */
function operationSection(spec: string, op: OperationEntry): string {
  return `## ${oneLine(operationTitle(op))}${op.deprecated ? ' (deprecated)' : ''}\n\n${operationBlock(spec, op)}`;
}

function tagPage(options: GenerateOptions, tag: TagEntry, slug: string): GeneratedPage {
  const spec = options.source.dependencies.spec.ref.spec;
  const ops = tag.operations.filter(blockable);
  const intro = tag.description ? `${tag.description}\n\n` : '';
  const page: GeneratedPage = {
    id: derivedId(options.seed, `tag:${tag.name}`),
    title: oneLine(tag.title) || 'Operations',
    slug,
    markdown: '',
    pages: [],
    ...(tag.description ? { description: firstSentence(tag.description) } : {}),
  };
  if (options.source.props.grouping !== 'by-operation') {
    page.markdown = intro + ops.map((op) => operationSection(spec, op)).join('\n\n') + '\n';
    return page;
  }
  const used = new Set<string>();
  page.pages = ops.map((op) => {
    const child: GeneratedPage = {
      id: derivedId(options.seed, `operation:${op.method} ${op.path}`),
      title: oneLine(operationTitle(op)),
      slug: uniqueSlug(slugify(op.operationId ?? operationTitle(op)) || op.method, (s) => used.has(s)),
      markdown: operationBlock(spec, op) + '\n',
      pages: [],
    };
    used.add(child.slug);
    return child;
  });
  page.markdown =
    intro +
    page.pages
      .map((p, i) => `- [${linkText(p.title)}](/pages/${p.id}) — \`${ops[i]!.method.toUpperCase()} ${ops[i]!.path}\``)
      .join('\n') +
    '\n';
  return page;
}

function modelsPage(options: GenerateOptions): GeneratedPage {
  const sections = options.outline.schemas.map(({ name, description, schema }) => {
    const json = JSON.stringify(schema, null, 2);
    const fence = '`'.repeat(Math.max(3, ...[...json.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    return `## ${oneLine(name)}\n\n${description ? `${description}\n\n` : ''}${fence}json\n${json}\n${fence}`;
  });
  return {
    id: derivedId(options.seed, 'models'),
    title: 'Models',
    slug: 'models',
    description: 'The schemas the operations use.',
    markdown: (sections.length ? sections.join('\n\n') : 'This spec names no schemas.') + '\n',
    pages: [],
  };
}

function overview(options: GenerateOptions, pages: GeneratedPage[]): string {
  const { outline } = options;
  const parts: string[] = [];
  if (outline.description) parts.push(outline.description);
  const facts: string[] = [];
  if (outline.version) facts.push(`**Version:** ${oneLine(outline.version)}`);
  if (outline.servers.length)
    facts.push(
      `**Base URL${outline.servers.length > 1 ? 's' : ''}:** ${outline.servers.map((s) => `\`${oneLine(s)}\``).join(', ')}`,
    );
  if (facts.length) parts.push(facts.join('\\\n'));
  if (pages.length)
    parts.push(
      '## Reference\n\n' +
        pages
          .map((p) => `- [${linkText(p.title)}](/pages/${p.id})${p.description ? ` — ${oneLine(p.description)}` : ''}`)
          .join('\n'),
    );
  else parts.push('This spec has no operations yet.');
  if (options.source.props.downloadLink && options.downloadUrl)
    parts.push(`[Download the OpenAPI spec](${options.downloadUrl})`);
  return parts.join('\n\n') + '\n';
}

/** The pages and overview a `builtin:openapi` source generates from `outline`. */
export function openApiPages(options: GenerateOptions): GeneratedContent {
  const used = new Set<string>();
  const slugFor = (title: string) => {
    const slug = uniqueSlug(slugify(title) || 'operations', (s) => used.has(s));
    used.add(slug);
    return slug;
  };
  const pages = options.outline.tags
    .filter((t) => t.operations.some(blockable))
    .map((tag) => tagPage(options, tag, slugFor(tag.title)));
  if (options.source.props.models) {
    const models = modelsPage(options);
    models.slug = slugFor('models');
    pages.push(models);
  }
  return { overview: overview(options, pages), pages };
}

/** What one generated document shows (GitBook's ComputedContentSourceDocumentOpenAPI `props`). */
export type DocumentProps =
  | { doc: 'models' }
  | { doc: 'info'; page: string }
  | { doc: 'operations' | 'tag'; page: string }
  | { doc: 'operation'; page: string; method: string };

/**
 * The markdown of one generated document: the overview (`info`), a tag's operations (`operations`,
 * `tag`: `page` is the tag's name), one operation (`operation`: `page` is its path) or the models.
 * Undefined when the spec has no such tag or operation.
 */
export function documentMarkdown(options: GenerateOptions, props: DocumentProps): string | undefined {
  const spec = options.source.dependencies.spec.ref.spec;
  switch (props.doc) {
    case 'models':
      return modelsPage(options).markdown;
    case 'info':
      return openApiPages(options).overview;
    case 'operation': {
      const op = options.outline.tags
        .flatMap((t) => t.operations)
        .find((o) => o.path === props.page && o.method === props.method.toLowerCase());
      return op && blockable(op) ? operationBlock(spec, op) + '\n' : undefined;
    }
    default: {
      const tag = options.outline.tags.find((t) => t.name === props.page || t.title === props.page);
      const byTag = {
        ...options,
        source: { ...options.source, props: { ...options.source.props, grouping: 'by-tag' as const } },
      };
      return tag ? tagPage(byTag, tag, slugify(tag.title)).markdown : undefined;
    }
  }
}
