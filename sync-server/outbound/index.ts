/** Outbound HTTP: the server's only way to fetch a URL (SSRF-safe; see fetch.ts). */
export { fetchOutbound } from './fetch';
export { OutboundError, ERROR_BODY_BYTES, type OutboundErrorCode, type OutboundErrorResponse } from './errors';
export { parseOutboundUrl, pinAddress, systemResolver } from './pin';
export {
  DEFAULTS as OUTBOUND_DEFAULTS,
  type OutboundBody,
  type OutboundOptions,
  type OutboundRequest,
  type OutboundResponse,
  type Resolver,
} from './types';
export {
  parseAllowList,
  refusedRange,
  checkAddress,
  isAllowed,
  EMPTY_ALLOW_LIST,
  type AllowList,
} from './address-policy';
