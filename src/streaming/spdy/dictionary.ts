// The zlib dictionary SPDY/3 primes both header compression contexts with (draft-mbelshe-
// httpbis-spdy-00, section 2.6.10.1). Peers must use it byte for byte or the first header block
// does not inflate, so it is spelled out here in the shape the draft defines: HTTP words, each
// after a 32-bit big-endian length, then a run of common values without separators. Its SHA-256
// is checked in the unit tests against the draft's byte listing.

const words = [
  'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset',
  'accept-encoding', 'accept-language', 'accept-ranges', 'age', 'allow', 'authorization',
  'cache-control', 'connection', 'content-base', 'content-encoding', 'content-language',
  'content-length', 'content-location', 'content-md5', 'content-range', 'content-type', 'date',
  'etag', 'expect', 'expires', 'from', 'host', 'if-match', 'if-modified-since', 'if-none-match',
  'if-range', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'pragma',
  'proxy-authenticate', 'proxy-authorization', 'range', 'referer', 'retry-after', 'server', 'te',
  'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'vary', 'via', 'warning',
  'www-authenticate', 'method', 'get', 'status', '200 OK', 'version', 'HTTP/1.1', 'url', 'public',
  'set-cookie', 'keep-alive', 'origin',
];

const tail = [
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505',
  '203 Non-Authoritative Information', '204 No Content', '301 Moved Permanently',
  '400 Bad Request', '401 Unauthorized', '403 Forbidden', '404 Not Found',
  '500 Internal Server Error', '501 Not Implemented', '503 Service Unavailable',
  'Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 ',
  'Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT',
  'chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,',
  'text/plain,text/javascript,', 'public', 'private', 'max-age=', 'gzip,deflate,sdch',
  'charset=utf-8', 'charset=iso-8859-1,', 'utf-,*,enq=0.',
].join('');

function build(): Buffer {
  const parts: Buffer[] = [];
  for (const w of words) {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(w.length);
    parts.push(len, Buffer.from(w, 'latin1'));
  }
  parts.push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
}

/** the 1,423 bytes of the SPDY/3 header dictionary */
export const spdy3Dictionary: Buffer = build();
