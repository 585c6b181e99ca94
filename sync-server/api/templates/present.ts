import type { SpaceTemplate, TemplatePage } from '../../templates/types';

const title = (p: TemplatePage) => (p.emoji ? { title: p.title, emoji: p.emoji } : { title: p.title });

/** A catalogue entry as listTemplates answers it: what it is and which pages it adds. */
export function presentTemplate(t: SpaceTemplate) {
  return {
    object: 'space-template' as const,
    id: t.id,
    title: t.title,
    description: t.description,
    emoji: t.emoji,
    pages: t.pages.map((p) => ({ ...title(p), pages: (p.pages ?? []).map(title) })),
    contentRefs: t.refs.map((r) => ({ name: r.name, kinds: [...r.kinds], description: r.description })),
  };
}
