import type { SpaceTemplate } from './types';

/** A new joiner's first weeks: welcome, a checklist, how the team works, tools, people. */
export const onboarding: SpaceTemplate = {
  id: 'onboarding',
  title: 'Onboarding',
  emoji: '🌱',
  description:
    'Everything a new team member needs in their first weeks: a welcome, a day-by-day checklist, how the team works, tools and access, and who to ask.',
  refs: [
    {
      name: 'handbook',
      kinds: ['url'],
      description: 'Your company handbook or intranet (a URL), linked from the welcome page.',
      fallback: '{{page:how-we-work}}',
    },
  ],
  pages: [
    {
      ref: 'welcome',
      title: 'Welcome',
      emoji: '👋',
      description: 'Start here on your first day.',
      markdown: `We're glad you're here. This space is your guide for the first weeks: read it in order, and tick things off as you go.

{% hint style="success" %}
**Your first day** is about setting up and meeting people, not about shipping. Take your time.
{% endhint %}

## Start here

1. Go through [your first week]({{page:first-week}}), day by day.
2. Read [how we work]({{page:how-we-work}}) and the [company handbook]({{ref:handbook}}).
3. Set up [tools and access]({{page:tools}}).
4. Meet the [people to know]({{page:people}}).
`,
    },
    {
      ref: 'first-week',
      title: 'Your first week',
      emoji: '✅',
      description: 'A day-by-day checklist.',
      markdown: `{% tabs %}
{% tab title="Day 1" %}
- [ ] Collect your laptop and sign in.
- [ ] Set up email, chat and calendar (see [Tools and access]({{page:tools}})).
- [ ] Lunch with your buddy.
{% endtab %}

{% tab title="Days 2–3" %}
- [ ] Meet your manager: agree on goals for your first 30 days.
- [ ] Shadow a teammate for a morning.
- [ ] Read the last three team meeting notes.
{% endtab %}

{% tab title="Days 4–5" %}
- [ ] Pick up your first small task.
- [ ] Join the team's weekly meeting and introduce yourself.
- [ ] Tell your buddy what was confusing this week: we improve this guide with it.
{% endtab %}
{% endtabs %}
`,
    },
    {
      ref: 'how-we-work',
      title: 'How we work',
      emoji: '🤝',
      description: 'Meetings, communication and decisions.',
      markdown: `## Communication

| Need                         | Use                         |
| ---------------------------- | --------------------------- |
| A quick question             | Team chat channel           |
| A decision that needs a record | A written proposal in this space |
| Something urgent             | A call                      |

## Meetings

* **Weekly team meeting**, Monday 10:00: priorities for the week.
* **Demo**, every other Friday: show what you finished, however small.

## Decisions

We write decisions down. A proposal states the problem, the options considered and the recommendation; it is decided within a week.

{% hint style="info" %}
Default to writing in public channels: someone else probably has the same question.
{% endhint %}
`,
    },
    {
      ref: 'tools',
      title: 'Tools and access',
      emoji: '🧰',
      description: 'What to install and how to get access.',
      markdown: `| Tool          | What for                  | How to get access              |
| ------------- | ------------------------- | ------------------------------ |
| Email and calendar | Everything external  | Set up on day 1 by IT          |
| Team chat     | Day-to-day conversation   | Invitation sent to your email  |
| Docs (here)   | Knowledge that lasts      | Already done: you're reading it |
| Password manager | Shared credentials     | Ask your manager               |

{% hint style="warning" %}
Turn on two-factor authentication for every tool that offers it, before the end of your first week.
{% endhint %}
`,
    },
    {
      ref: 'people',
      title: 'People to know',
      emoji: '🧑‍🤝‍🧑',
      description: 'Who does what, and who to ask.',
      markdown: `| Role             | Name        | Ask them about                         |
| ---------------- | ----------- | -------------------------------------- |
| Your manager     | *Add name*  | Goals, feedback, time off              |
| Your buddy       | *Add name*  | Anything, really: no question is silly |
| IT               | *Add name*  | Laptop, accounts, access               |
| People team      | *Add name*  | Contracts, benefits, payroll           |

Replace the names above when a new person joins, so this page stays true.
`,
    },
  ],
};
