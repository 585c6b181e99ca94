// A real S3-protocol server (s3rver) for the object-store tests, run as its own process so that
// stopping it is a real outage: `node --openssl-legacy-provider s3-server-main.mjs DIR PORT BUCKET`.
// It prints {"port":N} once it listens. The legacy provider: s3rver ciphers ListObjectsV2
// continuation tokens with DES, which OpenSSL 3 only offers there.
import process from 'node:process';
import S3rver from 's3rver';

const [dir, port, bucket] = process.argv.slice(2);
// s3rver's file store races with itself: deleting a key removes its folder when it looks empty, while a
// concurrent PUT under the same prefix is opening its file there (ENOENT, emitted with no listener).
// A real S3 has no folders; here that one request fails and the server lives on.
process.on('uncaughtException', (err) => process.stderr.write(`s3rver: ${err.message}\n`));
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  silent: true,
  directory: dir,
  configureBuckets: [{ name: bucket }],
});
const { port: bound } = await server.run();
process.stdout.write(`${JSON.stringify({ port: bound })}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
