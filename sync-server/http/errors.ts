import { apiErrorBody, type ApiErrorBody } from '../../shared/api-error';

/**
 * An error a route reports to the caller. It is rendered in GitBook's shape
 * `{"error": {"code": <status>, "message": "..."}}`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'Authentication required: pass "Authorization: Bearer <token>"') =>
  new ApiError(401, message);
export const forbidden = (message = 'You do not have permission to do this') => new ApiError(403, message);
export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const conflict = (message: string) => new ApiError(409, message);

/** The body every error response carries (GitBook's shape, shared/api-error.ts). */
export function errorBody(status: number, message: string): ApiErrorBody {
  return apiErrorBody(status, message);
}
