import { Type } from 'typebox';
import { EntityId, Timestamp } from '../../http/schemas';

/** GitBook's ImportGitRepository / ExportToGitRepository bodies and GitSyncState. */

export const GitParams = Type.Object({ spaceId: EntityId });

const GitInfo = Type.Object(
  {
    provider: Type.Optional(Type.Union([Type.Literal('github'), Type.Literal('gitlab')])),
    url: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

const common = {
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'URL of the Git repository (http or https); it may embed basic auth credentials.',
  }),
  ref: Type.String({ minLength: 1, maxLength: 255, description: 'Git ref, as "refs/heads/main"' }),
  repoCacheID: Type.Optional(Type.String({ maxLength: 255 })),
  repoTreeURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoCommitURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1024 })),
  timestamp: Type.Optional(Timestamp),
  force: Type.Optional(Type.Boolean()),
  standalone: Type.Optional(Type.Boolean()),
  gitInfo: Type.Optional(GitInfo),
};

export const ImportBody = Type.Object(common, { additionalProperties: false });
export const ExportBody = Type.Object(
  { ...common, commitMessage: Type.String({ minLength: 1, maxLength: 10_000 }) },
  { additionalProperties: false },
);
export type GitOperationBody = {
  url: string;
  ref: string;
  repoCacheID?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  repoProjectDirectory?: string;
  timestamp?: string;
  force?: boolean;
  standalone?: boolean;
  gitInfo?: { provider?: 'github' | 'gitlab'; url?: string };
  commitMessage?: string;
};

export const GitSyncStateSchema = Type.Object(
  {
    installationId: Type.String(),
    installationProvider: Type.String(),
    installationStatus: Type.String(),
    repoName: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    updatedAt: Type.Optional(Type.String()),
    operation: Type.Optional(Type.Object({}, { additionalProperties: true })),
    operationTimeout: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);
