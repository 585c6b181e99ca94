import type { SpaceTemplate } from './types';

/** Developer documentation around an OpenAPI spec: overview, quickstart, auth, the reference, errors, limits. */
export const apiReference: SpaceTemplate = {
  id: 'api-reference',
  title: 'API reference',
  emoji: '🧩',
  description:
    'Developer documentation for a REST API: an overview, a quickstart in three languages, authentication, the endpoints from your OpenAPI spec, errors and rate limits.',
  refs: [
    {
      name: 'openapi',
      kinds: ['openapi'],
      description:
        'The OpenAPI spec of the organization whose operations the reference shows (a ContentRef of kind "openapi").',
      fallback: 'your-api',
    },
  ],
  pages: [
    {
      ref: 'introduction',
      title: 'Introduction',
      emoji: '👋',
      description: 'What the API does and how these docs are organised.',
      markdown: `Welcome to the developer documentation. The API is organised around REST: resources have predictable URLs, requests and responses are JSON, and standard HTTP verbs and status codes say what happened.

{% hint style="info" %}
**New here?** The [Quickstart]({{page:quickstart}}) takes you from zero to your first successful request in about five minutes.
{% endhint %}

## Base URL

~~~
https://api.example.com/v1
~~~

All requests are made over HTTPS. Plain HTTP requests are refused.

## Where to go next

{% content-ref url="{{page:quickstart}}" %}
[Quickstart]({{page:quickstart}})
{% endcontent-ref %}

{% content-ref url="{{page:authentication}}" %}
[Authentication]({{page:authentication}})
{% endcontent-ref %}

{% content-ref url="{{page:reference}}" %}
[API reference]({{page:reference}})
{% endcontent-ref %}
`,
    },
    {
      ref: 'quickstart',
      title: 'Quickstart',
      emoji: '🚀',
      description: 'Make your first request in five minutes.',
      markdown: `## 1. Get an API key

Create a key in your account settings under **API keys**. Keys start with \`sk_\` and are shown only once: store yours in a secret manager or an environment variable.

## 2. Make your first request

{% tabs %}
{% tab title="curl" %}
~~~bash
curl https://api.example.com/v1/projects \\
  -H "Authorization: Bearer $API_KEY"
~~~
{% endtab %}

{% tab title="JavaScript" %}
~~~javascript
const response = await fetch('https://api.example.com/v1/projects', {
  headers: { Authorization: \`Bearer \${process.env.API_KEY}\` },
});
const projects = await response.json();
console.log(projects.items);
~~~
{% endtab %}

{% tab title="Python" %}
~~~python
import os
import requests

response = requests.get(
    "https://api.example.com/v1/projects",
    headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
)
response.raise_for_status()
print(response.json()["items"])
~~~
{% endtab %}
{% endtabs %}

## 3. Read the answer

A successful request answers \`200 OK\` with a JSON body. Lists are wrapped in an object with an \`items\` array and a \`next\` cursor (see [Rate limits and pagination]({{page:limits}})).

{% hint style="success" %}
That's it! Browse the [API reference]({{page:reference}}) for everything else you can do.
{% endhint %}
`,
    },
    {
      ref: 'authentication',
      title: 'Authentication',
      emoji: '🔑',
      description: 'API keys, bearer tokens and keeping them safe.',
      markdown: `Every request must carry an API key in the \`Authorization\` header, as a bearer token:

~~~http
GET /v1/projects HTTP/1.1
Host: api.example.com
Authorization: Bearer sk_live_...
~~~

A request without a valid key answers \`401 Unauthorized\`; a key that may not do what was asked answers \`403 Forbidden\`.

## Test and live keys

| Prefix      | Use it for                  | Touches real data |
| ----------- | --------------------------- | ----------------- |
| \`sk_test_\` | development and CI          | No                |
| \`sk_live_\` | production                  | Yes               |

{% hint style="warning" %}
**Keep keys secret.** Never commit a key to a repository or ship it in a browser or mobile app. If a key leaks, revoke it in your account settings: a new one works immediately.
{% endhint %}

## Rotating keys

Create the new key, deploy it, then revoke the old one. Both work in the meantime, so rotation needs no downtime.
`,
    },
    {
      ref: 'reference',
      title: 'API reference',
      emoji: '📖',
      description: 'Every endpoint, generated from the OpenAPI spec.',
      markdown: `The endpoints below are drawn from the OpenAPI spec: when a new version of the spec is published, this page shows it without being edited.

{{openapi-operations}}
`,
    },
    {
      ref: 'errors',
      title: 'Errors',
      emoji: '🚨',
      description: 'Status codes and the shape of an error.',
      markdown: `The API uses conventional HTTP status codes: \`2xx\` is success, \`4xx\` is a problem with the request, \`5xx\` is a problem on our side.

Every error has the same JSON body:

~~~json
{
  "error": {
    "code": 404,
    "message": "Project not found"
  }
}
~~~

| Status | Meaning               | What to do                                            |
| ------ | --------------------- | ----------------------------------------------------- |
| 400    | Bad request           | Fix the request: the message names the field.         |
| 401    | Unauthorized          | Send a valid API key (see [Authentication]({{page:authentication}})). |
| 403    | Forbidden             | The key may not do this: check its permissions.       |
| 404    | Not found             | The resource does not exist, or the key cannot see it. |
| 409    | Conflict              | Reload the resource and try again.                    |
| 429    | Too many requests     | Slow down (see [Rate limits and pagination]({{page:limits}})). |
| 5xx    | Server error          | Retry with exponential backoff.                       |

{% hint style="info" %}
Retrying is safe for \`GET\`, \`PUT\` and \`DELETE\`. For \`POST\`, send an \`Idempotency-Key\` header so a retried request is never applied twice.
{% endhint %}
`,
    },
    {
      ref: 'limits',
      title: 'Rate limits and pagination',
      emoji: '⏱️',
      description: 'How many requests you may make, and how to read long lists.',
      markdown: `## Rate limits

Each API key may make **100 requests per second**. Every answer says where you stand:

| Header                  | Meaning                                   |
| ----------------------- | ----------------------------------------- |
| \`RateLimit-Limit\`     | Requests allowed in the current window    |
| \`RateLimit-Remaining\` | Requests left in the current window       |
| \`Retry-After\`         | Seconds to wait, on a \`429\` answer       |

## Pagination

Lists answer at most \`limit\` items (20 by default, 100 at most) and a \`next\` cursor when there are more:

~~~json
{ "items": [ ... ], "next": { "page": "eyJpZCI6..." } }
~~~

Pass \`page=<next.page>\` to get the following items; a list without \`next\` is complete.
`,
    },
  ],
};
