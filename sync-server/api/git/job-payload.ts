/** What a Git import or export job is given (its payload), and the names the runner knows them by. */

export const GIT_IMPORT_JOB = 'git-import';
export const GIT_EXPORT_JOB = 'git-export';

/** One subject per space: its Git jobs run one at a time, in the order they were asked for. */
export const gitSubject = (spaceId: string) => `git:${spaceId}`;

export interface GitJobPayload {
  spaceId: string;
  organizationId: string;
  userId: string;
  /** When the event that asked for it happened: an operation older than the last one applied is skipped. */
  timestamp?: string;
  force?: boolean;
  standalone?: boolean;
  commitMessage?: string;
}
