/**
 * GitBook's dispatch format: one POST to `<base>/v1` whose body is `multipart/form-data` with the
 * fields `event` (GitBook's Event as JSON), `environment` (IntegrationEnvironment as JSON) and,
 * for `fetch` events, `fetch-body` (the public endpoint's request body). @gitbook/runtime reads
 * exactly these with `request.formData()` (its integrations.ts). Encoded by the platform's own
 * FormData serializer (undici's, the one `fetch` uses), so the boundary and part headers are what
 * every standard parser expects.
 */

/** The dispatch body and its Content-Type (with the boundary). */
export interface DispatchBody {
  body: Uint8Array;
  contentType: string;
}

export async function encodeDispatch(
  event: Record<string, unknown>,
  environment: Record<string, unknown>,
  fetchBody?: Uint8Array,
): Promise<DispatchBody> {
  const form = new FormData();
  form.append('event', JSON.stringify(event));
  // A body part rather than a string: request bodies need not be UTF-8 (a signed webhook's exact bytes).
  if (fetchBody) form.append('fetch-body', new Blob([new Uint8Array(fetchBody)]));
  form.append('environment', JSON.stringify(environment));
  const encoded = new Response(form);
  return {
    body: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type')!,
  };
}

/** The dispatch URL under a base (a tunnel URL, or the sandbox's nominal origin): `<base>/v1`. */
export function dispatchUrl(base: string): string {
  return `${base.replace(/\/+$/, '')}/v1`;
}
