import { Type } from 'typebox';
import { EntityId } from '../../http/schemas';

/** The automatic sync's settings (Folio extension): GET and PATCH `/spaces/{spaceId}/git/settings`, and the webhook. */

/** Minutes between polls: at most every 5 minutes (a Git host is not a queue), at least once a day. */
export const POLL_MINUTES_MIN = 5;
export const POLL_MINUTES_MAX = 1440;

/**
 * `integer | null` as one JSON Schema type list rather than a union: `minimum` and `maximum` apply
 * only to numbers, and a bad value is refused with one plain message ("must be >= 5"), not the
 * errors of every branch of an anyOf.
 */
const PollMinutes = Type.Unsafe<number | null>({
  type: ['integer', 'null'],
  minimum: POLL_MINUTES_MIN,
  maximum: POLL_MINUTES_MAX,
  description: `Minutes between two imports of the branch (${POLL_MINUTES_MIN}..${POLL_MINUTES_MAX}), or null for no polling`,
});

export const GitSettingsSchema = Type.Object(
  {
    exportOnMerge: Type.Boolean({ description: 'Export the space after every merged change request' }),
    importOnPush: Type.Boolean({ description: 'Import when a push is announced on the webhook URL' }),
    pollMinutes: PollMinutes,
    webhookUrl: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        description:
          'The secret URL a Git host calls on a push (null until importOnPush is first enabled); shown only to who may sync the space',
      }),
    ),
    lastPolledAt: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When the last poll queued an import',
    }),
  },
  { additionalProperties: false },
);

export const GitSettingsPatch = Type.Object(
  {
    exportOnMerge: Type.Optional(Type.Boolean()),
    importOnPush: Type.Optional(Type.Boolean()),
    pollMinutes: Type.Optional(PollMinutes),
    rotateWebhookSecret: Type.Optional(
      Type.Literal(true, { description: 'Make a new webhook URL; the old one stops working at once' }),
    ),
  },
  { additionalProperties: false },
);

export interface GitSettingsChange {
  exportOnMerge?: boolean;
  importOnPush?: boolean;
  pollMinutes?: number | null;
  rotateWebhookSecret?: true;
}

export const GitHookParams = Type.Object({
  spaceId: EntityId,
  // Any text up to the router's limit: every wrong secret, well-formed or not, is the same 404.
  secret: Type.String({ minLength: 1, maxLength: 256 }),
});

export const GitHookAnswer = Type.Object(
  {
    queued: Type.Boolean({ description: 'Whether an import of the space was queued (or one was already waiting)' }),
    reason: Type.Optional(Type.String({ description: 'Why nothing was queued' })),
  },
  { additionalProperties: false },
);
