import type { SpaceTemplate } from './types';

/** A help centre: categories of short answers, troubleshooting, and how to reach support. */
export const knowledgeBase: SpaceTemplate = {
  id: 'knowledge-base',
  title: 'Knowledge base',
  emoji: '💬',
  description:
    'A help centre for your customers or your team: short answers grouped by topic, troubleshooting steps and how to reach support.',
  refs: [
    {
      name: 'support',
      kinds: ['url'],
      description: 'Where readers open a ticket (a URL): your help desk or a mailto: address.',
      fallback: '{{page:contact}}',
    },
  ],
  pages: [
    {
      ref: 'home',
      title: 'Help centre',
      emoji: '🏠',
      description: 'Find answers fast.',
      markdown: `Search with the bar at the top, or browse by topic below.

{% content-ref url="{{page:account}}" %}
[Account and billing]({{page:account}})
{% endcontent-ref %}

{% content-ref url="{{page:troubleshooting}}" %}
[Troubleshooting]({{page:troubleshooting}})
{% endcontent-ref %}

{% hint style="info" %}
Still stuck? [Contact support]({{ref:support}}): a person answers every request.
{% endhint %}
`,
    },
    {
      ref: 'account',
      title: 'Account and billing',
      emoji: '👤',
      description: 'Sign-in, passwords, plans and invoices.',
      markdown: `Everything about your account, your plan and your invoices.

* [Reset your password]({{page:reset-password}})
* [Change your plan]({{page:change-plan}})
`,
      pages: [
        {
          ref: 'reset-password',
          title: 'Reset your password',
          description: 'Get back into your account.',
          markdown: `1. On the sign-in page, select **Forgot password?**
2. Enter the email address of your account.
3. Open the email we send you and follow the link within 30 minutes.

{% hint style="warning" %}
No email after five minutes? Check your spam folder, and that you used the address your account was created with.
{% endhint %}
`,
        },
        {
          ref: 'change-plan',
          title: 'Change your plan',
          description: 'Upgrade, downgrade or cancel.',
          markdown: `Admins change the plan under **Settings → Billing**.

| Change    | When it takes effect                                      |
| --------- | --------------------------------------------------------- |
| Upgrade   | Immediately; you pay the difference for the current month. |
| Downgrade | At the end of the current billing period.                 |
| Cancel    | At the end of the current billing period; data is kept 30 days. |

Invoices are emailed to the billing contact and listed under **Settings → Billing → Invoices**.
`,
        },
      ],
    },
    {
      ref: 'troubleshooting',
      title: 'Troubleshooting',
      emoji: '🛠️',
      description: 'Fixes for the most common problems.',
      markdown: `## The app does not load

1. Reload the page.
2. Clear your browser's cache for the site.
3. Try a private window: if it works there, a browser extension is the cause.

## Changes don't appear for my teammates

Changes are shared as soon as they are saved. If a teammate doesn't see them, ask them to check they are in the same workspace, then reload.

## I see "Something went wrong"

{% hint style="danger" %}
Note the time and what you were doing, then [contact support]({{ref:support}}) with that information. It lets us find the exact request in our logs.
{% endhint %}
`,
    },
    {
      ref: 'contact',
      title: 'Contact support',
      emoji: '✉️',
      description: 'How to reach us and what to include.',
      markdown: `Our team answers Monday to Friday, 9:00–18:00, usually within four hours.

## Include in your request

* What you were trying to do.
* What happened instead, and any error message.
* A screenshot or a short screen recording.

{% hint style="success" %}
Urgent problem affecting everyone in your team? Put **URGENT** at the start of the subject: it goes to the top of the queue.
{% endhint %}
`,
    },
  ],
};
