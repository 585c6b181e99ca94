import type { Check } from './authz-expect';
import type { World } from './authz-fixture';
import type { Params } from './authz-fresh';

/**
 * One row of the authorization matrix: how to call an operation on the
 * fixture, and what its service asks policy (in its order). The method, the
 * path and the success status come from `/v1/openapi.json`; the callers
 * from authz-callers.ts.
 */
export interface OperationCase {
  /** Names a variant when an operation is exercised more than once. */
  label?: string;
  /** Path parameters replacing the fixture's; fresh resources are built here, once per cell (authz-fresh.ts). */
  params?: (w: World) => Params | Promise<Params>;
  query?: Params;
  /** A minimal valid body (updates write back the value already there, so cells stay independent). */
  body?: (w: World, p: Params) => unknown;
  checks: (w: World, p: Params) => Check[];
  /** The status of an allowed DELETE that deleted something, where it differs from "it did not exist" (GitBook's 205). */
  deleted?: number;
  /**
   * For lists: fixture items whose presence in a 2xx answer (`items[].id`) must follow policy, each with
   * the check that says whether the caller may see it (a list must not reveal what a GET would hide).
   */
  shows?: (w: World) => { id: string; check: Check }[];
}

/** The fixture's ids under the names of the document's path parameters. */
export function fixtureParams(w: World): Params {
  return {
    organizationId: w.organizationId,
    spaceId: w.spaceId,
    changeRequestId: w.changeRequestId,
    pageId: w.pageId,
    pagePath: w.pagePath,
    fileId: w.fileId,
    revisionId: w.revisionId,
    commentId: w.commentId,
    commentReplyId: w.replyId,
    collectionId: w.collectionId,
    teamId: w.teamId,
    inviteId: w.inviteId,
    userId: w.memberId,
    reviewId: w.reviewId,
    siteId: w.siteId,
    siteSectionId: w.sectionId,
    siteSectionGroupId: w.groupId,
    siteSpaceId: w.siteSpaceId,
  };
}

export type OperationTable = Record<string, OperationCase | OperationCase[]>;
