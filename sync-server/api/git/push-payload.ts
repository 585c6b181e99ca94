/**
 * The branches a push announcement names, from whatever a Git host posts: GitHub, GitLab and Gitea
 * send `ref` ("refs/heads/main"; GitHub's form-encoded deliveries put that JSON in a `payload`
 * field), Bitbucket Cloud lists `push.changes[].new|old` with a type and a name. A body that names
 * none (a plain `curl -X POST`, a ping) gives undefined: it asks for an import whatever changed.
 */

/** At most this many refs are read from one payload (a push names a few; the rest is noise). */
const MAX_REFS = 20;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A body as an object: JSON already parsed, a JSON text, or a form with a JSON `payload` field. */
function asObject(body: unknown): Json | undefined {
  if (typeof body === 'string') {
    try {
      return asObject(JSON.parse(body));
    } catch {
      return undefined;
    }
  }
  if (!isObject(body)) return undefined;
  if (body.ref === undefined && typeof body.payload === 'string') return asObject(body.payload) ?? body;
  return body;
}

/** Bitbucket Cloud's `repo:push`: the branches of `push.changes[]` (new, or old for a deleted branch). */
function bitbucketRefs(body: Json): string[] {
  const push = body.push;
  if (!isObject(push) || !Array.isArray(push.changes)) return [];
  const out: string[] = [];
  for (const change of push.changes.slice(0, MAX_REFS)) {
    if (!isObject(change)) continue;
    for (const side of [change.new, change.old]) {
      if (isObject(side) && side.type === 'branch' && typeof side.name === 'string') {
        out.push(`refs/heads/${side.name}`);
        break;
      }
    }
  }
  return out;
}

/** The refs the payload names, or undefined when it names none. */
export function pushedRefs(body: unknown): string[] | undefined {
  const payload = asObject(body);
  if (!payload) return undefined;
  const refs = typeof payload.ref === 'string' && payload.ref !== '' ? [payload.ref] : bitbucketRefs(payload);
  return refs.length > 0 ? refs : undefined;
}

/** Whether a pushed ref is the synced branch (`refs/heads/main`, or `main` as some scripts send it). */
export function isBranch(ref: string, branchRef: string): boolean {
  return ref === branchRef || `refs/heads/${ref}` === branchRef;
}
