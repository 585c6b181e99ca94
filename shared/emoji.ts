/**
 * GitBook's "emoji" string format: empty, a unicode emoji sequence (with
 * joiners and variation selectors), or its hex code point(s) like "1f4d8".
 */
export const EMOJI_PATTERN =
  /^$|^[0-9a-fA-F]{2,6}(-[0-9a-fA-F]{2,6})*$|^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f)+$/u;
