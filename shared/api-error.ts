/**
 * GitBook's error body, which every error answer of the API carries:
 * `{"error": {"code": <HTTP status>, "message": "..."}}`. The server builds it with apiErrorBody;
 * clients read it back with readApiError.
 */
export interface ApiErrorDetail {
  code: number;
  message: string;
}

export interface ApiErrorBody {
  error: ApiErrorDetail;
}

/** The body of an error answer with HTTP status `code`. */
export function apiErrorBody(code: number, message: string): ApiErrorBody {
  return { error: { code, message } };
}

/** The `error` of a parsed JSON body in GitBook's error shape, or undefined when the body has another shape. */
export function readApiError(body: unknown): ApiErrorDetail | undefined {
  if (!isObject(body)) return undefined;
  const error = body.error;
  if (!isObject(error)) return undefined;
  const { code, message } = error;
  if (typeof code !== 'number' || !Number.isInteger(code) || typeof message !== 'string') return undefined;
  return { code, message };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
