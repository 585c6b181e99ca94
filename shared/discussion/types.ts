/** Plain data read from a discussion document (see keys.ts for the layout). */

/** What a comment is attached to. All optional: a comment may be on the whole space / change request. */
export interface CommentTarget {
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
  /** the change-request review this comment belongs to, when posted as part of one */
  review?: string;
}

/** One emoji and who reacted with it, earliest first. */
export interface ReactionData {
  emoji: string;
  users: { userId: string; reactedAt: string }[];
}

/** Fields shared by comments and replies. */
export interface PostData {
  id: string;
  author: string;
  markdown: string;
  postedAt: string;
  editedAt?: string;
  reactions: ReactionData[];
}

export type ReplyData = PostData;

export interface CommentData extends PostData {
  target: CommentTarget;
  resolvedAt?: string;
  resolvedBy?: string;
  /** oldest first */
  replies: ReplyData[];
}

/** Address of a comment or of one of its replies. */
export interface PostRef {
  comment: string;
  reply?: string;
}
