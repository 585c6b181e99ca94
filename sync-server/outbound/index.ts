/** Outbound HTTP: the server's only way to fetch a URL (SSRF-safe; see fetch.ts). */
export {
  fetchOutbound,
  parseOutboundUrl,
  pinAddress,
  systemResolver,
  OutboundError,
  DEFAULTS as OUTBOUND_DEFAULTS,
  type OutboundErrorCode,
  type OutboundOptions,
  type OutboundResponse,
  type Resolver,
} from './fetch';
export {
  parseAllowList,
  refusedRange,
  checkAddress,
  isAllowed,
  EMPTY_ALLOW_LIST,
  type AllowList,
} from './address-policy';
