import { ContentDoc } from '../../shared/doc';
import { markdownToDocument } from '../../shared/markdown';
import { spaceContentDoc } from '../../shared/sync-contract';
import { createUser, issueToken } from '../../sync-server/identity/users';
import type { RunningServer } from '../../sync-server/server';
import type { Operation, RequestContext } from './openapi-fuzz-operations';

/**
 * The organization the fuzz suite aims at, built through the public API as
 * the instance admin: a space (in the root) with two pages, a file, a comment
 * with a reply, a change request (by a second member, so the admin can review
 * it) with a comment, a reply, a review and a requested reviewer; a second
 * space in a collection; a team; an invite link; a site with a section, a
 * section group and a site space; a second organization (a transfer target);
 * an unused upload slot and signed download and PDF links. Their ids fill
 * path parameters and id-shaped body fields, so generated requests get past
 * "not found" into the code behind it.
 */
export interface FuzzFixture extends RequestContext {
  orgId: string;
  spaceId: string;
  /** Every id of the fixture (also the second organization's and both users'). */
  ids: string[];
}

interface Call {
  (method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>>;
}

function caller(url: string, adminToken: string): Call {
  return async (method, path, body, token = adminToken) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`fuzz fixture: ${method} ${path} answered ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
}

const id = (o: Record<string, unknown>) => String(o.id);

/** Path parameters and query of a signed URL, read against the operation's path template. */
function signedParts(
  template: string,
  signedUrl: string,
): { params: Record<string, string>; query: Record<string, string> } {
  const u = new URL(signedUrl);
  const names: string[] = [];
  const re = new RegExp(
    `^${template.replace(/\{(\w+)\}/g, (_m, n: string) => (names.push(n), '([^/]+)'))}$`.replace(/\//g, '\\/'),
  );
  const m = re.exec(u.pathname);
  if (!m) throw new Error(`fuzz fixture: ${u.pathname} does not match ${template}`);
  const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
  return { params, query: Object.fromEntries(u.searchParams) };
}

export async function buildFuzzFixture(server: RunningServer, adminToken: string): Promise<FuzzFixture> {
  const call = caller(server.url, adminToken);
  const ctx = server.ctx;
  const adminId = id(await call('GET', '/v1/user'));
  const orgId = id(await call('POST', '/v1/orgs', { title: 'Fuzz Org' }));
  const org2Id = id(await call('POST', '/v1/orgs', { title: 'Fuzz Transfer Target' }));

  // A second member (edit role) who joins through an invite link and opens the change request.
  const inviteId = id(await call('POST', `/v1/orgs/${orgId}/link-invites`, { role: 'edit' }));
  const memberId = await createUser(ctx.db, { displayName: 'Fuzz Member', email: 'fuzz.member@example.com' });
  const memberToken = await issueToken(ctx.db, memberId, 'fuzz');
  await call('POST', `/v1/orgs/${orgId}/invites/${inviteId}`, undefined, memberToken);
  const teamId = id(await call('PUT', `/v1/orgs/${orgId}/teams`, { title: 'Fuzz Team', members: [memberId] }));
  const collectionId = id(await call('POST', `/v1/orgs/${orgId}/collections`, { title: 'Fuzz Collection' }));
  const spaceId = id(await call('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Fuzz Space' }));
  const space2Id = id(await call('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Fuzz Space 2', parent: collectionId }));

  // Content: two pages and a file whose bytes were uploaded through a signed URL.
  const bytes = Buffer.from('fuzz file\n');
  const slot = await call('POST', `/v1/orgs/${orgId}/storage/upload`, {
    file: { name: 'fuzz.txt', type: 'text/plain', size: bytes.length },
    kind: 'organization_file',
  });
  const put = await fetch(String(slot.url), { method: 'PUT', body: bytes, headers: { 'content-type': 'text/plain' } });
  if (!put.ok) throw new Error(`fuzz fixture: upload answered ${put.status}: ${await put.text()}`);
  const { sha256 } = (await put.json()) as { sha256: string };
  let introId = '';
  let childId = '';
  const fileId = 'fuzzfile01';
  await ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    const content = new ContentDoc(doc);
    introId = content.createPage({ title: 'Intro', markdown: '# Intro\n\nHello [link](https://example.com).\n' });
    childId = content.createPage({ title: 'Child', parent: introId, markdown: '- a\n- b\n' });
    content.putFile(fileId, { name: 'fuzz.txt', contentType: 'text/plain', size: bytes.length, sha256 });
  });
  await ctx.snapshots.revise(spaceId);
  const revisionId = id(await call('GET', `/v1/spaces/${spaceId}/content`));
  const file = await call('GET', `/v1/spaces/${spaceId}/content/files/${fileId}`);
  const unusedSlot = await call('POST', `/v1/orgs/${orgId}/storage/upload`, {
    file: { name: 'slot.txt', type: 'text/plain', size: 4 },
    kind: 'organization_file',
  });

  const md = (markdown: string) => ({ body: { markdown } });
  const commentId = id(await call('POST', `/v1/spaces/${spaceId}/comments`, { ...md('A comment'), page: introId }));
  const replyId = id(await call('POST', `/v1/spaces/${spaceId}/comments/${commentId}/replies`, md('A reply')));

  const crPath = (crId: string) => `/v1/spaces/${spaceId}/change-requests/${crId}`;
  const crId = id(await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Fuzz CR' }, memberToken));
  const crCommentId = id(await call('POST', `${crPath(crId)}/comments`, md('A CR comment')));
  const crReplyId = id(await call('POST', `${crPath(crId)}/comments/${crCommentId}/replies`, md('A CR reply')));
  const reviewId = id(await call('POST', `${crPath(crId)}/reviews`, { status: 'approved' }));
  await call('POST', `${crPath(crId)}/requested-reviewers`, { users: [adminId] }, memberToken);
  const pdf = await call('GET', `${crPath(crId)}/pdf`);

  const sitePath = (siteId: string) => `/v1/orgs/${orgId}/sites/${siteId}`;
  const siteId = id(await call('POST', `/v1/orgs/${orgId}/sites`, { title: 'Fuzz Site', spaces: [spaceId] }));
  const siteSpaceId = id(
    ((await call('GET', `${sitePath(siteId)}/site-spaces`)).items as Record<string, unknown>[])[0]!,
  );
  const sectionId = id(await call('POST', `${sitePath(siteId)}/sections`, { spaceId: space2Id }));
  const groupId = id(await call('POST', `${sitePath(siteId)}/section-groups`, { title: 'Fuzz Group' }));

  const byName: Record<string, string[]> = {
    organizationId: [orgId],
    emailDomain: ['example.com'],
    inviteId: [inviteId],
    teamId: [teamId],
    collectionId: [collectionId],
    spaceId: [spaceId],
    changeRequestId: [crId],
    pageId: [introId, childId],
    pagePath: ['intro', 'intro/child'],
    fileId: [fileId],
    revisionId: [revisionId],
    reviewId: [reviewId],
    siteId: [siteId],
    siteSectionId: [sectionId],
    siteSectionGroupId: [groupId],
    siteSpaceId: [siteSpaceId],
  };
  const signed: Record<string, string> = {
    uploadStorageFile: String(unusedSlot.url),
    downloadFile: String(file.downloadURL),
    downloadRevisionPdf: String(pdf.url),
  };
  const ids = [
    ...new Set([
      ...Object.values(byName).flat(),
      ...[org2Id, space2Id, adminId, memberId, commentId, replyId, crCommentId, crReplyId],
    ]),
  ];
  // Id-shaped body fields and query parameters by name: ids of the kind the name says.
  const byField: Record<string, string[]> = {
    space: [spaceId, space2Id],
    spaceId: [spaceId, space2Id],
    spaces: [spaceId, space2Id],
    collection: [collectionId],
    parent: [collectionId],
    organization: [org2Id, orgId],
    owner: [adminId, memberId],
    members: [adminId, memberId],
    users: [adminId, memberId],
    authors: [adminId, memberId],
    page: [introId, childId],
    targetPage: [introId, childId],
    defaultSiteSpace: [siteSpaceId],
    siteSpace: [siteSpaceId],
    defaultSiteSection: [sectionId],
    siteSection: [sectionId],
    sectionId: [sectionId],
    sections: [sectionId],
    siteSectionGroupId: [groupId],
  };
  const document = markdownToDocument('Hello *world*\n\n- a\n- [b](https://example.com)\n');
  const adaptive = {
    jsonSchema: {
      type: 'object',
      properties: {
        isBeta: { type: 'boolean', description: 'Beta tester' },
        plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
      },
      additionalProperties: false,
    },
  };
  const examples: Record<string, unknown[]> = {
    updateSiteAdaptiveSchema: [adaptive],
    submitChangeRequestReview: [{ status: 'changes-requested', comment: document }],
    requestReviewersForChangeRequest: [{ users: [adminId], description: document }],
    addSpaceToSite: [{ spaceId: space2Id }],
    addSectionToSite: [{ spaceId: spaceId, title: 'Section' }],
    moveSpace: [{ parent: collectionId }, { parent: null }],
  };
  for (const op of ['postCommentInSpace', 'postCommentInChangeRequest', 'postCommentReplyInSpace']) {
    examples[op] = [{ body: { document } }];
  }
  examples.postCommentReplyInChangeRequest = examples.postCommentReplyInSpace!;
  const edits = [{ body: { markdown: 'Edited' } }, { addedReactions: ['👍'] }, { removedReactions: ['👍'] }];
  for (const op of ['updateCommentInSpace', 'updateCommentInChangeRequest'])
    examples[op] = [...edits, { resolved: true }, { resolved: false }];
  for (const op of ['updateCommentReplyInSpace', 'updateCommentReplyInChangeRequest']) examples[op] = edits;

  return {
    orgId,
    spaceId,
    ids,
    pathValues(op: Operation, name: string): readonly string[] {
      const signedUrl = signed[op.operationId];
      if (signedUrl) return [signedParts(op.path, signedUrl).params[name]!];
      const inCr = op.path.includes('/change-requests/');
      if (name === 'commentId') return [inCr ? crCommentId : commentId];
      if (name === 'commentReplyId') return [inCr ? crReplyId : replyId];
      // Only the second member's role may change: the admin stays the admin the fuzzing needs.
      if (name === 'userId') return op.method === 'GET' ? [memberId, adminId] : [memberId];
      return byName[name] ?? [];
    },
    signedQuery(op: Operation) {
      const signedUrl = signed[op.operationId];
      return signedUrl ? signedParts(op.path, signedUrl).query : undefined;
    },
    idsFor: (name: string) => byField[name],
    exampleBodies: (op: Operation) => examples[op.operationId] ?? [],
    // The upload slot was declared as 4 bytes of text/plain.
    rawBody: (op: Operation) =>
      op.operationId === 'uploadStorageFile' ? { type: 'text/plain', text: 'fuzz' } : undefined,
  };
}
