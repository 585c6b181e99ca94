import type { OperationCase, OperationTable } from './authz-cases';
import { ask, type Check } from './authz-expect';
import type { World } from './authz-fixture';
import { fresh, TITLES, type Params } from './authz-fresh';
import { PERMISSION_OPERATIONS } from './authz-table-permissions';

/** Space content, revisions, links, search, change requests, reviews and both discussions. */

type Checks = (w: World, p: Params) => Check[];

const viewSpace: Checks = (_w, p) => [ask.space(p.spaceId!, 'view')];
const viewCr: Checks = (_w, p) => [ask.changeRequest(p.spaceId!, p.changeRequestId!, 'view')];
const onCr =
  (action: Parameters<typeof ask.changeRequest>[2]): Checks =>
  (_w, p) => [ask.changeRequest(p.spaceId!, p.changeRequestId!, action)];

const reads = (names: string[], checks: Checks): OperationTable =>
  Object.fromEntries(names.map((name) => [name, { checks }]));

/**
 * The comment operations of one discussion: `cr` says whose (the change
 * request's, or the space's). Fixture posts are the `comment` member's, so
 * ownership rules (only the author edits; the author or an admin deletes)
 * are exercised by every other caller.
 */
function discussionOperations(cr: boolean): OperationTable {
  const suffix = cr ? 'InChangeRequest' : 'InSpace';
  const crOf = (p: Params) => (cr ? p.changeRequestId : undefined);
  const own: Partial<OperationCase> = cr
    ? { params: (w) => ({ commentId: w.crCommentId, commentReplyId: w.crReplyId }) }
    : {};
  const view: Checks = (_w, p) => [ask.discussion(p.spaceId!, crOf(p), 'view')];
  const post: Checks = (_w, p) => [
    ask.discussion(p.spaceId!, crOf(p), 'change'),
    ask.discussion(p.spaceId!, crOf(p), 'comment'),
  ];
  const edit: Checks = (w, p) => [...post(w, p), ask.post(p.spaceId!, crOf(p), w.commentAuthorId, 'edit')];
  const remove: Checks = (w, p) => [
    ask.discussion(p.spaceId!, crOf(p), 'change'),
    ask.post(p.spaceId!, crOf(p), w.commentAuthorId, 'delete'),
  ];
  const markdown = (text: string) => () => ({ body: { markdown: text } });
  return {
    [`listComments${suffix}`]: { ...own, checks: view },
    [`getComment${suffix}`]: { ...own, checks: view },
    [`postComment${suffix}`]: { body: markdown('Posted by the matrix'), checks: post },
    // The author's own text again: a change only the author may make, that leaves the fixture as it was.
    [`updateComment${suffix}`]: { ...own, body: markdown(TITLES.comment), checks: edit },
    [`deleteComment${suffix}`]: { params: cr ? fresh.crComment : fresh.comment, checks: remove },
    [`listCommentReplies${suffix}`]: { ...own, checks: view },
    [`postCommentReply${suffix}`]: { ...own, body: markdown('Replied by the matrix'), checks: post },
    [`getCommentReply${suffix}`]: { ...own, checks: view },
    [`updateCommentReply${suffix}`]: { ...own, body: markdown(TITLES.reply), checks: edit },
    [`deleteCommentReply${suffix}`]: { params: cr ? fresh.crReply : fresh.reply, checks: remove },
  };
}

export const CONTENT_OPERATIONS: OperationTable = {
  ...PERMISSION_OPERATIONS,
  ...reads(
    [
      'getCurrentRevision',
      'listPages',
      'getPageById',
      'getPageByPath',
      'listFiles',
      'getFileById',
      'getRevisionById',
      'listPagesInRevisionById',
      'getPageInRevisionById',
      'listFilesInRevisionById',
      'getFileInRevisionById',
      'listSpaceRevisions',
      'getRevisionSemanticChanges',
      'listSpaceLinks',
      'listPageLinks',
      'listPageBacklinks',
      'listFileBacklinks',
      'listChangeRequestsForSpace',
    ],
    viewSpace,
  ),
  searchSpaceContent: { query: { query: 'file' }, checks: viewSpace },
  searchOrganizationContent: {
    query: { query: 'file' },
    checks: (_w, p) => [ask.organization(p.organizationId!, 'view')],
  },
  ...reads(
    [
      'getRevisionOfChangeRequestById',
      'listPagesInChangeRequest',
      'getPageInChangeRequestById',
      'getPageInChangeRequestByPath',
      'listFilesInChangeRequestById',
      'getFileInChangeRequestById',
      'listChangeRequestPageLinks',
      'listChangeRequestPageBacklinks',
      'listChangeRequestFileBacklinks',
      'getChangeRequestPDF',
      'getChangeRequestById',
      'getChangeRequestChanges',
      'getReviewsByChangeRequestId',
      'getChangeRequestReviewById',
      'getRequestedReviewersByChangeRequestId',
    ],
    viewCr,
  ),
  createChangeRequest: {
    body: () => ({ subject: 'Opened by the matrix' }),
    checks: (_w, p) => [ask.space(p.spaceId!, 'create-change-request')],
  },
  updateChangeRequestById: { body: () => ({ subject: TITLES.changeRequest }), checks: onCr('update') },
  mergeChangeRequest: { params: fresh.changeRequest, checks: onCr('merge') },
  updateChangeRequest: { checks: onCr('update-from-main') },
  // The fixture page's own title again: a real batch that leaves the change request as it was.
  updateChangeRequestContent: {
    body: (w) => ({ changes: [{ operation: 'update_page', page: w.pageId, title: 'Introduction' }] }),
    checks: onCr('edit-content'),
  },
  // A fresh space each time: the template's pages are appended, and the fixture space stays as it was.
  applyTemplateToSpace: {
    params: fresh.space,
    body: () => ({ id: 'changelog' }),
    checks: (_w, p) => [ask.space(p.spaceId!, 'edit-content')],
  },
  submitChangeRequestReview: { body: () => ({ status: 'approved' }), checks: onCr('review') },
  requestReviewersForChangeRequest: {
    body: (w) => ({ users: [w.reviewerId] }),
    checks: onCr('request-reviewers'),
  },
  removeRequestedReviewerFromChangeRequest: {
    params: (w) => ({ userId: w.memberId }),
    checks: onCr('remove-reviewer'),
  },
  ...discussionOperations(false),
  ...discussionOperations(true),
};
