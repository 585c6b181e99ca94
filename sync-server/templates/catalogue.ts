import { apiReference } from './api-reference';
import { changelog } from './changelog';
import { knowledgeBase } from './knowledge-base';
import { onboarding } from './onboarding';
import { productDocs } from './product-docs';
import type { SpaceTemplate } from './types';

/**
 * The built-in templates, in the order the app offers them. They are
 * TypeScript modules (not .md files read at run time) so the compiled server
 * bundles them with no asset to ship.
 */
export const TEMPLATES: readonly SpaceTemplate[] = [productDocs, apiReference, knowledgeBase, changelog, onboarding];

/** The template ids: the enum of applyTemplateToSpace's `id`. */
export const TEMPLATE_IDS = TEMPLATES.map((t) => t.id);

export function findTemplate(id: string): SpaceTemplate | undefined {
  return TEMPLATES.find((t) => t.id === id);
}
