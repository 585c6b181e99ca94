/**
 * Names of the Yjs documents the hub keeps. One place, so the WebSocket
 * routes, the snapshot pipeline and REST agree.
 */
export const spaceContentDoc = (spaceId: string) => `space/${spaceId}/content`;
export const spaceDiscussionDoc = (spaceId: string) => `space/${spaceId}/discussion`;

/** The space whose content document this is, or undefined for any other document. */
export function spaceOfContentDoc(name: string): string | undefined {
  const m = /^space\/([A-Za-z0-9_-]+)\/content$/.exec(name);
  return m?.[1];
}

export const crContentDoc = (changeRequestId: string) => `cr/${changeRequestId}/content`;
export const crDiscussionDoc = (changeRequestId: string) => `cr/${changeRequestId}/discussion`;

/** The change request whose content document this is, or undefined for any other document. */
export function changeRequestOfContentDoc(name: string): string | undefined {
  const m = /^cr\/([A-Za-z0-9_-]+)\/content$/.exec(name);
  return m?.[1];
}
