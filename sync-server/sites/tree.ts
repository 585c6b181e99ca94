import type { Queryable } from '../store/db';
import type { SpaceRow } from '../store/spaces';
import { loadSiteStructure, type GroupRow, type SectionRow, type SiteRow, type SiteSpaceRow } from '../store/sites';

/** A top-level entry of a site's structure: a section outside any group, or a group. */
export type TopLevelItem = { type: 'section'; row: SectionRow } | { type: 'group'; row: GroupRow };

/** Orders rows by their fractional-index key, bytewise (keys are ASCII; no collation), then id. */
export function byPosition<T extends { position: string; id: string }>(a: T, b: T): number {
  return a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Everything of one site: its groups, sections and site spaces in display
 * order, and the spaces they publish. Sites are small (tens of items), so
 * every operation loads the whole tree in four queries and works in memory.
 */
export class SiteTree {
  constructor(
    readonly site: SiteRow,
    readonly groups: GroupRow[],
    readonly sections: SectionRow[],
    readonly siteSpaces: SiteSpaceRow[],
    readonly spaces: Map<string, SpaceRow>,
  ) {}

  /** Loads the structure of `site` (a row the caller already read). */
  static async load(db: Queryable, site: SiteRow): Promise<SiteTree> {
    const { groups, sections, siteSpaces, spaces } = await loadSiteStructure(db, site.id);
    return new SiteTree(
      site,
      groups.sort(byPosition),
      sections.sort(byPosition),
      siteSpaces.sort(byPosition),
      new Map(spaces.map((s) => [s.id, s])),
    );
  }

  /** Whether the site is organized in sections (else its site spaces sit at the root level). */
  get hasSections(): boolean {
    return this.sections.length > 0;
  }

  /** A section by id. */
  section(id: string): SectionRow | undefined {
    return this.sections.find((s) => s.id === id);
  }

  /** A section group by id. */
  group(id: string): GroupRow | undefined {
    return this.groups.find((g) => g.id === id);
  }

  /** A site space by id. */
  siteSpace(id: string): SiteSpaceRow | undefined {
    return this.siteSpaces.find((s) => s.id === id);
  }

  /** Sections outside groups and groups, interleaved in display order. */
  topLevel(): TopLevelItem[] {
    const items: (TopLevelItem & { position: string; id: string })[] = [
      ...this.sections
        .filter((s) => s.group_id === null)
        .map((row) => ({ type: 'section' as const, row, position: row.position, id: row.id })),
      ...this.groups.map((row) => ({ type: 'group' as const, row, position: row.position, id: row.id })),
    ];
    return items.sort(byPosition).map(({ type, row }) => ({ type, row }) as TopLevelItem);
  }

  /** Sections of a group, in order. */
  sectionsOf(groupId: string): SectionRow[] {
    return this.sections.filter((s) => s.group_id === groupId);
  }

  /** Every section in display order (groups flattened in place). */
  orderedSections(): SectionRow[] {
    return this.topLevel().flatMap((item) => (item.type === 'section' ? [item.row] : this.sectionsOf(item.row.id)));
  }

  /** Site spaces of a section (null = root level), in order. */
  siteSpacesOf(sectionId: string | null): SiteSpaceRow[] {
    return this.siteSpaces.filter((s) => s.section_id === sectionId);
  }

  /** Every site space in display order. */
  orderedSiteSpaces(): SiteSpaceRow[] {
    return this.hasSections ? this.orderedSections().flatMap((s) => this.siteSpacesOf(s.id)) : this.siteSpacesOf(null);
  }

  /** The default section: the chosen one while it exists, else the first. */
  defaultSectionId(): string | undefined {
    const chosen = this.site.default_section_id;
    if (chosen && this.section(chosen)) return chosen;
    return this.orderedSections()[0]?.id;
  }

  /** The default site space of a section (or of the root level): the chosen one while it is there, else the first. */
  defaultSiteSpaceId(sectionId: string | null): string | undefined {
    const chosen =
      sectionId === null ? this.site.default_site_space_id : this.section(sectionId)?.default_site_space_id;
    const candidates = this.siteSpacesOf(sectionId);
    if (chosen && candidates.some((s) => s.id === chosen)) return chosen;
    return candidates[0]?.id;
  }

  /** Whether a site space is the default of its section (or root level). */
  isDefaultSiteSpace(row: SiteSpaceRow): boolean {
    return this.defaultSiteSpaceId(row.section_id) === row.id;
  }
}
