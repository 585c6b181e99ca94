import { describe, expect, it } from 'vitest';
import { openApiSource } from '../../shared/doc/computed';
import {
  groupingLabel,
  operationsLabel,
  previewEntries,
  previewProblem,
  previewSummary,
  settingsOf,
  sourceOf,
  type GeneratedPage,
} from '../../renderer/src/computed/api-reference-model';

/**
 * The app's model of an API reference page (renderer/src/computed/api-reference-model.ts): the
 * settings a source holds and the source they make (keeping what the form does not edit), the
 * preview's entries drawn from getComputedRevision's pages in both layouts, and what a 404 or 409
 * of the server tells a writer.
 */

const block = (path: string, method = 'get') =>
  `{% openapi-operation spec="pets" path="${path}" method="${method}" %}\n{% endopenapi-operation %}`;

describe('settings and sources', () => {
  it('reads the settings of a source, grouping by tag when the source names none', () => {
    expect(settingsOf(openApiSource('pets', { models: true }))).toEqual({
      spec: 'pets',
      grouping: 'by-tag',
      models: true,
    });
    expect(settingsOf(openApiSource('pets', { grouping: 'by-operation' }))).toEqual({
      spec: 'pets',
      grouping: 'by-operation',
      models: false,
    });
  });

  it('makes the source of the settings, keeping the props the form does not edit', () => {
    const previous = openApiSource('pets', { models: true, downloadLink: true });
    const next = sourceOf({ spec: 'stores', grouping: 'by-operation', models: false }, previous);
    expect(next).toEqual(openApiSource('stores', { models: false, downloadLink: true, grouping: 'by-operation' }));
    expect(sourceOf({ spec: 'pets', grouping: 'by-tag', models: true }).props).toEqual({
      models: true,
      grouping: 'by-tag',
    });
  });

  it('names the layouts', () => {
    expect(groupingLabel('by-tag')).toBe('A page per tag');
    expect(groupingLabel('by-operation')).toBe('A page per operation');
  });
});

describe('the preview of the generated pages', () => {
  it('counts the operations of a page per tag from its blocks, and leaves the models without any', () => {
    const pages: GeneratedPage[] = [
      {
        id: 'a',
        title: 'Pets',
        description: 'Adopt and care for pets.',
        markdown: `Intro.\n\n## List pets\n\n${block('/pets')}\n\n## Create a pet\n\n${block('/pets', 'post')}\n`,
        pages: [],
      },
      { id: 'b', title: 'stores', markdown: `## Get a store\n\n${block('/stores/{id}')}\n`, pages: [] },
      { id: 'c', title: 'Models', description: 'The schemas the operations use.', markdown: '## Pet\n', pages: [] },
    ];
    const entries = previewEntries(pages);
    expect(entries.map((e) => [e.title, e.operations, e.description])).toEqual([
      ['Pets', 2, 'Adopt and care for pets.'],
      ['stores', 1, undefined],
      ['Models', 0, 'The schemas the operations use.'],
    ]);
    expect(entries.map((e) => operationsLabel(e.operations))).toEqual(['2 operations', '1 operation', '']);
    expect(previewSummary(entries)).toBe('3 pages · 3 operations');
  });

  it('counts a page per operation through the pages under each tag', () => {
    const pages: GeneratedPage[] = [
      {
        id: 'a',
        title: 'Pets',
        markdown: '- [List pets](/pages/x) — `GET /pets`\n- [Create a pet](/pages/y) — `POST /pets`\n',
        pages: [
          { id: 'x', title: 'List pets', markdown: `${block('/pets')}\n` },
          { id: 'y', title: 'Create a pet', markdown: `${block('/pets', 'post')}\n` },
        ],
      },
    ];
    const [pets] = previewEntries(pages);
    expect(pets!.operations).toBe(2);
    expect(pets!.children.map((c) => [c.title, c.operations])).toEqual([
      ['List pets', 1],
      ['Create a pet', 1],
    ]);
    expect(previewSummary(previewEntries(pages))).toBe('3 pages · 2 operations');
    expect(previewSummary([])).toBe('0 pages');
  });
});

describe('what the server refuses, said to a writer', () => {
  it('says a missing spec (404) and a spec without a version (409), processing or failed', () => {
    expect(previewProblem(404, 'nope')).toMatchObject({ kind: 'missing', message: expect.stringContaining('“nope”') });
    expect(previewProblem(409, 'later', { slug: 'later', processingState: 'progress' })).toMatchObject({
      kind: 'processing',
      message: expect.stringContaining('still being processed'),
    });
    // Without the spec's facts (a reader who cannot list specs), a 409 is taken as processing.
    expect(previewProblem(409, 'later')?.kind).toBe('processing');
    expect(
      previewProblem(409, 'broken', {
        slug: 'broken',
        processingState: 'complete',
        lastProcessErrorCode: 'PARSE_ERROR',
      }),
    ).toMatchObject({ kind: 'failed', message: expect.stringContaining('PARSE_ERROR') });
  });

  it('leaves other failures to the ordinary error with Retry', () => {
    expect(previewProblem(500, 'pets')).toBeUndefined();
    expect(previewProblem(undefined, 'pets')).toBeUndefined();
    expect(previewProblem(400, 'pets')).toBeUndefined();
  });
});
