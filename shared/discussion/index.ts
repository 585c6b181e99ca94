/**
 * The discussion document model: typed access to a space's or change
 * request's `discussion` Y.Doc (comments, replies, reactions, resolution).
 * Yjs key names stay private to keys.ts.
 */
export { DiscussionDoc, DiscussionDocError, isReactionEmoji, type DiscussionDocOptions } from './discussion-doc';
export type * from './types';
