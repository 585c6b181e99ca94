import type { SpaceTemplate } from './types';

/** Release notes: a page per release, newest first, with a consistent shape. */
export const changelog: SpaceTemplate = {
  id: 'changelog',
  title: 'Changelog',
  emoji: '📣',
  description:
    'Release notes your users will actually read: one page per release, newest first, with what is new, what changed and what was fixed.',
  refs: [
    {
      name: 'website',
      kinds: ['url'],
      description: 'Your product’s website (a URL), linked from the changelog’s home page.',
      fallback: 'https://example.com',
    },
  ],
  pages: [
    {
      ref: 'changelog',
      title: 'Changelog',
      emoji: '📣',
      description: 'Every release, newest first.',
      markdown: `What's new in [our product]({{ref:website}}), release by release. Subscribe to the RSS feed of this site to hear about new releases.

| Release                        | Date       | Highlights                            |
| ------------------------------ | ---------- | ------------------------------------- |
| [2.1.0]({{page:release-2-1}})  | 2025-03-04 | Dark mode, faster search              |
| [2.0.0]({{page:release-2-0}})  | 2025-01-20 | New editor, API v2                    |

{% hint style="info" %}
**How we version.** Major releases (3.0) may need you to change something: their notes start with what to do. Minor releases (2.1) add features; patches (2.1.1) only fix bugs.
{% endhint %}
`,
      pages: [
        {
          ref: 'release-2-1',
          title: '2.1.0',
          description: 'March 4, 2025: dark mode and faster search.',
          markdown: `*March 4, 2025*

## ✨ New

* **Dark mode.** Choose light, dark or your system's setting under **Settings → Appearance**.
* **Keyboard shortcuts** for the most common actions: press \`?\` to see them all.

## 🔧 Improved

* Search answers up to three times faster in large workspaces.

## 🐛 Fixed

* Exports no longer skip items created in the last minute.
* Dates show in your time zone in email notifications.
`,
        },
        {
          ref: 'release-2-0',
          title: '2.0.0',
          description: 'January 20, 2025: the new editor and API v2.',
          markdown: `*January 20, 2025*

{% hint style="warning" %}
**Action needed.** API v1 is retired on June 30, 2025. Move your integrations to v2 before then: the request shapes are the same, only the base URL changes.
{% endhint %}

## ✨ New

* **A new editor**, with slash commands, tables and real-time collaboration.
* **API v2**, with cursor pagination and webhooks.

## 🔧 Improved

* Pages load twice as fast on mobile.
`,
        },
      ],
    },
    {
      ref: 'writing',
      title: 'How to write a release note',
      emoji: '✍️',
      description: 'The team’s checklist (hidden from readers once you delete or hide this page).',
      markdown: `Copy the page of the latest release, rename it to the new version, and keep its shape:

1. **Date** in italics under the title.
2. **Action needed** first, in a warning hint, if readers must change anything.
3. **New**, **Improved**, **Fixed**: one bullet per change, starting with what the reader gets, not what we did.
4. Add a row to the table on the [changelog's home page]({{page:changelog}}).

{% hint style="info" %}
Hide or delete this page before you publish the site.
{% endhint %}
`,
    },
  ],
};
