import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors';
import { MAX_HEADER_BYTES, MAX_PARAM_LENGTH } from './limits';

/**
 * Refusals that happen before any route or hook of ours runs, in the API's
 * error shape `{"error": {"code", "message"}}` instead of Fastify's or Node's
 * own: the router's (`frameworkErrors`) and the HTTP parser's
 * (`clientErrorHandler`). Messages never echo the request: its URL may carry
 * a token or a signature.
 */

/** Fastify's `frameworkErrors` option: router refusals (undecodable path, over-long parameter). */
export function answerFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      reply.status(400).send(errorBody(400, 'Invalid URL: a %-escape in the path does not decode to UTF-8 text'));
      return;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      reply.status(414).send(errorBody(414, `A path segment is longer than ${MAX_PARAM_LENGTH} characters`));
      return;
    default: {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status === 500) reply.log.error({ err }, 'router error');
      reply.status(status).send(errorBody(status, status === 500 ? 'Internal server error' : err.message));
    }
  }
}

/** The status and message for an error of Node's HTTP parser (codes `HPE_*` and Node's own). */
function clientErrorAnswer(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, `The request head (request line and headers) is larger than ${MAX_HEADER_BYTES / 1024} kB`];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'The request was not received in time'];
    default:
      return [400, 'The request is not valid HTTP/1.1'];
  }
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the bytes (a
 * head over 16 kB, a broken request line, a request not received in time).
 * There is no request object yet, so the answer is written on the socket,
 * which is then closed (its state is unknown).
 */
export function answerClientError(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = clientErrorAnswer(err.code);
  // Only the code: Node attaches the raw bytes to parser errors, and they may carry a token.
  this.log.debug({ code: err.code, status }, 'refused a malformed request');
  if (socket.writable) {
    const body = JSON.stringify(errorBody(status, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}
