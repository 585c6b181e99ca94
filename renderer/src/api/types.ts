/**
 * The API objects the app reads, narrowed to the fields it uses. They are
 * structurally compatible with @gitbook/api's types (the server serializes
 * GitBook's schemas); picking keeps the renderer independent of that
 * package's full type surface.
 */
import type {
  ChangeRequest as GbChangeRequest,
  Organization as GbOrganization,
  Space as GbSpace,
  User as GbUser,
} from '@gitbook/api';

export type User = Pick<GbUser, 'id' | 'displayName'>;
export type Organization = Pick<GbOrganization, 'id' | 'title'>;
export type Space = Pick<GbSpace, 'id' | 'title' | 'emoji' | 'organization'>;
export type ChangeRequest = Pick<GbChangeRequest, 'id' | 'number' | 'status' | 'subject' | 'outdated' | 'comments'>;

/** A list answer of the API. */
export interface List<T> {
  items: T[];
  next?: { page: string };
}

/** One entry of getChangeRequestChanges. */
export interface SemanticChange {
  type: string;
  page: { id: string; title: string; path?: string };
}

/** The upload slot generateStorageUploadURL hands out. */
export interface UploadSlot {
  url: string;
  key: string;
}

/** What uploadStorageFile answers once the bytes are stored. */
export interface UploadedFile {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** A RevisionFile (content files), for its signed downloadURL. */
export interface RevisionFile {
  id: string;
  name: string;
  downloadURL: string;
}
