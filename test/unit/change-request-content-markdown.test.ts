import { describe, expect, it } from 'vitest';
import { readMarkdownMeta } from '../../sync-server/api/change-request-content/markdown-meta';

/** How a markdown document sent to updateChangeRequestContent gives its page's metadata (as Git sync reads it). */
describe('readMarkdownMeta', () => {
  it('reads front matter and takes the leading heading as the title', () => {
    expect(
      readMarkdownMeta(
        '---\ntitle: "Quoted"\ndescription: Short\nhidden: true\nicon: rocket\n---\n\n# Heading\n\nBody\n',
      ),
    ).toEqual({
      title: 'Quoted',
      description: 'Short',
      hidden: true,
      icon: 'rocket',
      body: 'Body\n',
    });
    expect(readMarkdownMeta('# Setup\n\nInstall it.\n')).toEqual({ title: 'Setup', body: 'Install it.\n' });
  });

  it('drops an ATX closing sequence but keeps a # inside the title', () => {
    expect(readMarkdownMeta('# Title ##\nx').title).toBe('Title');
    expect(readMarkdownMeta('# C# #\n').title).toBe('C#');
  });

  it('leaves a body without heading or front matter as it is', () => {
    for (const md of ['Just text\n', '#hashtag first\n', '## Second level\n', '# \nx', ''])
      expect(readMarkdownMeta(md)).toEqual({ body: md });
  });

  it('reads pathological lines in one pass (they used to backtrack quadratically)', () => {
    const spaces = `# a${' '.repeat(200_000)}x`;
    expect(readMarkdownMeta(spaces).title).toBe(`a${' '.repeat(200_000)}x`);
    expect(readMarkdownMeta(`# a${'#'.repeat(200_000)}x`).title).toHaveLength(200_002);
  });
});
