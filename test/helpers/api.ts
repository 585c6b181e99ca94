import { expect } from 'vitest';
import { GitBookAPIError, type MemberRole } from '@gitbook/api';
import type { Role } from '../../sync-server/policy/roles';
import { createUser, issueToken } from '../../sync-server/identity/users';
import { assertMatchesGitBook } from './gitbook-schema';
import type { TestServer } from './server';

/**
 * Awaits a call of the official client, checks its status, validates the body
 * against GitBook's schema for that operationId, and returns the body.
 */
export async function ok<T>(operationId: string, call: Promise<{ status: number; data: T }>, status = 200): Promise<T> {
  const res = await call;
  expect(res.status, `${operationId} status`).toBe(status);
  assertMatchesGitBook(operationId, status, status === 204 ? undefined : res.data);
  return res.data;
}

/** Expects the client call to fail with `status`; returns the error message. */
export async function fails(call: Promise<unknown>, status: number): Promise<string> {
  try {
    await call;
  } catch (err) {
    if (err instanceof GitBookAPIError) {
      expect(err.response.status, `expected ${status}, got ${err.response.status}: ${err.message}`).toBe(status);
      return err.message;
    }
    throw err;
  }
  throw new Error(`expected the call to fail with ${status}, but it succeeded`);
}

export interface RawResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/** A raw HTTP call (for what the client cannot send: bad JSON, wrong types, missing tokens). */
export async function raw(
  t: Pick<TestServer, 'url'>,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${t.url}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Asserts a raw response is an error in GitBook's shape with this status. */
export function expectError(res: RawResponse, status: number, messagePattern?: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = res.body as { error?: { code?: unknown; message?: unknown } };
  expect(body?.error?.code).toBe(status);
  expect(typeof body?.error?.message).toBe('string');
  // No internals in messages: stack frames, SQL, file paths.
  expect(String(body.error!.message)).not.toMatch(/\bat .+\.ts:\d+|SELECT |INSERT |\/work\//);
  if (messagePattern) expect(String(body.error!.message)).toMatch(messagePattern);
}

export interface TestUser {
  id: string;
  token: string;
  email: string;
}

let userCounter = 0;

/** Creates a user with an API token through the same functions the CLI uses. */
export async function newUser(t: TestServer, name = `User ${++userCounter}`): Promise<TestUser> {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${Date.now().toString(36)}${userCounter}@example.com`;
  const id = await createUser(t.server.ctx.db, { displayName: name, email });
  const token = await issueToken(t.server.ctx.db, id, 'test');
  return { id, token, email };
}

/** Our role strings as the client's enum type (they are the same strings on the wire). */
export function asRole(role: Role | null): MemberRole | null {
  return role as MemberRole | null;
}
