import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc/content-doc';
import { filterCommands, type PaletteCommand } from '../../renderer/src/search/commands';
import { LocalSearchIndex } from '../../renderer/src/search/local-index';

/**
 * The offline index over a space's content document (what the palette
 * searches when the server is unreachable): full text by section, kept up to
 * date as the document changes.
 */
describe('LocalSearchIndex', () => {
  it('finds a word of a page body with its section, and follows edits, renames and deletions', () => {
    const doc = new Y.Doc();
    const content = new ContentDoc(doc);
    const guide = content.createPage({
      title: 'Guide',
      markdown: 'Welcome.\n\n## Setup\nInstall the flux capacitor.\n\n## Usage\nPress the big button.\n',
    });
    content.createPage({ title: 'Capacitors explained', markdown: 'Nothing to see.' });
    const index = new LocalSearchIndex(doc, 'space1');

    const hits = index.query('flux');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ spaceId: 'space1', pageId: guide, pageTitle: 'Guide', sectionId: 'setup' });
    expect(hits[0]!.body).toBe('Install the flux capacitor.');
    // Prefix search, and titles too: "capacit" is in Guide's body and in the other page's title.
    expect(new Set(index.query('capacit').map((h) => h.pageTitle))).toEqual(new Set(['Guide', 'Capacitors explained']));

    // An edit is found at the next query (the update only marked the index stale).
    content.pageBody(guide).insert(content.getMarkdown(guide).length, '\n## Offline\nTyped on a plane: zeppelin.\n');
    expect(index.query('zeppelin').map((h) => h.sectionId)).toEqual(['offline']);
    expect(index.query('flux')).toHaveLength(1); // the page's old sections went

    content.updatePage(guide, { title: 'Handbook' });
    expect(index.query('zeppelin')[0]!.pageTitle).toBe('Handbook');

    content.deletePage(guide);
    expect(index.query('zeppelin')).toEqual([]);
    expect(index.size).toBe(1);
  });

  it('finds a page with no text by its title, and keeps typo-tolerance for long words', () => {
    const doc = new Y.Doc();
    const content = new ContentDoc(doc);
    content.createPage({ title: 'Empty roadmap' });
    content.createPage({ title: 'Other', markdown: 'The architecture overview.' });
    const index = new LocalSearchIndex(doc, 's');
    expect(index.query('roadmap').map((h) => h.pageTitle)).toEqual(['Empty roadmap']);
    const fuzzy = index.query('architcture');
    expect(fuzzy.map((h) => h.pageTitle)).toEqual(['Other']);
    expect(fuzzy[0]!.matchedTerms).toContain('architecture');
  });
});

describe('filterCommands', () => {
  const commands: PaletteCommand[] = [
    { id: 'new-page', label: 'New page', icon: 'file-plus', run: () => undefined },
    { id: 'theme-dark', label: 'Theme: Dark', keywords: 'switch appearance', icon: 'moon', run: () => undefined },
    { id: 'sign-out', label: 'Sign out', keywords: 'log out', icon: 'log-out', run: () => undefined },
  ];

  it('keeps the commands where every typed word starts a word of the label or keywords', () => {
    expect(filterCommands(commands, '').map((c) => c.id)).toEqual(['new-page', 'theme-dark', 'sign-out']);
    expect(filterCommands(commands, 'dark').map((c) => c.id)).toEqual(['theme-dark']);
    expect(filterCommands(commands, 'switch th').map((c) => c.id)).toEqual(['theme-dark']);
    expect(filterCommands(commands, 'out').map((c) => c.id)).toEqual(['sign-out']);
    expect(filterCommands(commands, 'new dark')).toEqual([]);
  });
});
