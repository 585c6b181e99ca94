import type { SpaceTemplate } from './types';

/** User-facing product documentation: overview, getting started, guides, concepts, FAQ. */
export const productDocs: SpaceTemplate = {
  id: 'product-docs',
  title: 'Product docs',
  emoji: '📘',
  description:
    'Documentation for the people who use your product: an overview, a getting-started guide, task guides, key concepts and a FAQ.',
  refs: [
    {
      name: 'support',
      kinds: ['url'],
      description: 'Where readers get help (a URL): your help desk, community forum or a mailto: address.',
      fallback: 'mailto:support@example.com',
    },
  ],
  pages: [
    {
      ref: 'overview',
      title: 'Overview',
      emoji: '👋',
      description: 'What the product is and who it is for.',
      markdown: `Describe your product in two sentences: the problem it solves, and for whom. Readers decide here whether they are in the right place.

## What you can do

* **Plan** your work in one place and share it with your team.
* **Track** progress with dashboards that update as work moves.
* **Automate** repetitive steps with rules and integrations.

## Jump right in

{% content-ref url="{{page:getting-started}}" %}
[Getting started]({{page:getting-started}})
{% endcontent-ref %}

{% content-ref url="{{page:guides}}" %}
[Guides]({{page:guides}})
{% endcontent-ref %}

{% hint style="info" %}
Can't find what you need? [Ask us]({{ref:support}}): we answer within one business day.
{% endhint %}
`,
    },
    {
      ref: 'getting-started',
      title: 'Getting started',
      emoji: '🚀',
      description: 'From sign-up to your first result.',
      markdown: `This guide takes about ten minutes. By the end you will have a working project shared with a teammate.

## Before you begin

* An account (sign up on the website: it's free for small teams).
* A modern browser: the latest Chrome, Firefox, Safari or Edge.

## Step 1: create a project

1. Open the app and select **New project**.
2. Give it a name your team will recognise, such as *Website relaunch*.
3. Choose a template, or start blank.

## Step 2: invite your team

Select **Share** in the top right, type your teammates' emails and choose their role.

{% hint style="success" %}
Teammates you invite get an email with a link. They can start working as soon as they accept.
{% endhint %}

## Next steps

* Learn the [key concepts]({{page:concepts}}) behind projects and workspaces.
* Follow a [guide]({{page:guides}}) for your first real task.
`,
    },
    {
      ref: 'guides',
      title: 'Guides',
      emoji: '🧭',
      description: 'Step-by-step guides for common tasks.',
      markdown: `Task-oriented guides: each one starts from a goal and ends when it is reached.

{% content-ref url="{{page:guide-import}}" %}
[Import your data]({{page:guide-import}})
{% endcontent-ref %}

{% content-ref url="{{page:guide-integrations}}" %}
[Connect your tools]({{page:guide-integrations}})
{% endcontent-ref %}
`,
      pages: [
        {
          ref: 'guide-import',
          title: 'Import your data',
          description: 'Bring your existing data in from a spreadsheet or another tool.',
          markdown: `You can import from a CSV file or directly from another tool.

{% tabs %}
{% tab title="From a CSV file" %}
1. Select **Settings → Import**.
2. Choose **CSV file** and upload it (10 MB at most).
3. Match each column to a field, then select **Import**.
{% endtab %}

{% tab title="From another tool" %}
1. Select **Settings → Import**.
2. Choose the tool and sign in to it when asked.
3. Pick what to bring over, then select **Import**.
{% endtab %}
{% endtabs %}

{% hint style="warning" %}
Imports add to what you have: run one import per source, or you will get duplicates.
{% endhint %}
`,
        },
        {
          ref: 'guide-integrations',
          title: 'Connect your tools',
          description: 'Send updates to chat, calendars and more.',
          markdown: `Integrations keep the rest of your tools in step.

| Integration | What it does                                   |
| ----------- | ---------------------------------------------- |
| Chat        | Posts a message when a task changes status.    |
| Calendar    | Adds due dates to your calendar.               |
| Webhooks    | Sends every event to a URL you choose.         |

To connect one, open **Settings → Integrations**, select it, and follow the prompts.
`,
        },
      ],
    },
    {
      ref: 'concepts',
      title: 'Key concepts',
      emoji: '💡',
      description: 'The few ideas the rest of the docs rely on.',
      markdown: `<details>
<summary>Workspaces</summary>

A workspace holds everything your organisation does in the product: people, projects and settings. Most teams need exactly one.

</details>

<details>
<summary>Projects</summary>

A project groups the work towards one goal. It has members, a timeline and its own settings.

</details>

<details>
<summary>Roles</summary>

Roles decide what people may do: **viewers** read, **members** edit, **admins** also manage people and settings.

</details>
`,
    },
    {
      ref: 'faq',
      title: 'FAQ',
      emoji: '❓',
      description: 'Answers to the questions we hear most.',
      markdown: `## Is there a free plan?

Yes: teams of up to five people use every feature for free.

## Can I export my data?

Always. **Settings → Export** gives you a complete archive at any time.

## Where is my data stored?

In data centres in the region you chose when you signed up.

## How do I get help?

[Contact support]({{ref:support}}). Tell us what you were trying to do and what happened instead: a screenshot helps.
`,
    },
  ],
};
