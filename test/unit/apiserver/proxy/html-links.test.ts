// Links of proxied HTML pages: the URL-valued attributes rewritten, nothing else touched.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync, gzipSync } from 'node:zlib';
import { rewriteHtmlBody, rewriteHtmlLinks } from '../../../../src/apiserver/proxy/html-links.ts';
import { rewriteLocation } from '../../../../src/apiserver/proxy/headers.ts';

const prefix = '/api/v1/namespaces/ns/services/web/proxy';
const rewrite = (u: string) => rewriteLocation(u, '10.0.0.5:80', 'api:6443', prefix);

test('URL attributes of the elements that have them are pointed through the proxy', () => {
  const page = `<!DOCTYPE html><HTML><head><link rel=stylesheet href=/s.css></head>
<body><A HREF='/docs/?a=1&amp;b=2' class="x">docs</A> <a href="relative/x">r</a> <a href="https://example.com/">out</a>
<img src="http://10.0.0.5:80/logo.png" alt="/not-a-link"><form action="/submit" method=post></form>
<p title="/not-a-link">/text</p><!-- <a href="/in-comment"> --></body></html>`;
  const want = `<!DOCTYPE html><HTML><head><link rel=stylesheet href="${prefix}/s.css"></head>
<body><A href="${prefix}/docs/?a=1&amp;b=2" class="x">docs</A> <a href="relative/x">r</a> <a href="https://example.com/">out</a>
<img src="${prefix}/logo.png" alt="/not-a-link"><form action="${prefix}/submit" method=post></form>
<p title="/not-a-link">/text</p><!-- <a href="/in-comment"> --></body></html>`;
  assert.equal(rewriteHtmlLinks(page, rewrite), want);
});

test('script and style content is text, not markup; links already through the proxy stay', () => {
  const page = `<script src="/app.js">var s = '<a href="/x">';</script><style>a[href="/y"]{}</style><a href="${prefix}/z">`;
  assert.equal(rewriteHtmlLinks(page, rewrite), `<script src="${prefix}/app.js">var s = '<a href="/x">';</script><style>a[href="/y"]{}</style><a href="${prefix}/z">`);
});

test('a gzip page is read and written gzip; an encoding not understood is passed on', () => {
  const body = gzipSync(Buffer.from('<a href="/g">'));
  assert.equal(gunzipSync(rewriteHtmlBody(body, 'gzip', rewrite)!).toString(), `<a href="${prefix}/g">`);
  assert.equal(rewriteHtmlBody(Buffer.from('x'), 'br', rewrite), undefined);
  assert.equal(rewriteHtmlBody(Buffer.from('<img src=/i>'), undefined, rewrite)!.toString(), `<img src="${prefix}/i">`);
});
