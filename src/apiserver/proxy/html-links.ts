// Links in an HTML page a proxy relays, pointed back through the proxy as apimachinery's proxy
// transport points them: the URL-valued attributes of the elements the HTML spec gives them
// (a href, img src, form action, ...) go through the same rewrite as a redirect's Location.
// Only those attributes change; every other byte of the page is passed on as sent (Go's
// tokenizer also re-serializes each start tag, which changes nothing a browser reads).

import { deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';

/** the URL-valued attributes per element */
const urlAttributes: Record<string, readonly string[]> = {
  a: ['href'], applet: ['codebase'], area: ['href'], audio: ['src'], base: ['href'], blockquote: ['cite'],
  body: ['background'], button: ['formaction'], command: ['icon'], del: ['cite'], embed: ['src'], form: ['action'],
  frame: ['longdesc', 'src'], head: ['profile'], html: ['manifest'], iframe: ['longdesc', 'src'],
  img: ['longdesc', 'src', 'usemap'], input: ['src', 'usemap', 'formaction'], ins: ['cite'], link: ['href'],
  object: ['classid', 'codebase', 'data', 'usemap'], q: ['cite'], script: ['src'], source: ['src'], video: ['poster', 'src'],
};

/** elements whose content is text, not markup, until their end tag */
const rawText = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

const basicEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** an attribute value with its character references decoded; undefined when it holds one this file does not know */
function decodeValue(v: string): string | undefined {
  let unknown = false;
  const out = v.replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref[0] === '#') return String.fromCodePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)));
    const ch = basicEntities[ref];
    if (ch === undefined) unknown = true;
    return ch ?? whole;
  });
  return unknown ? undefined : out;
}

/** html.EscapeString's escapes */
function escapeValue(v: string): string {
  return v.replace(/[&'<>"]/g, c => ({ '&': '&amp;', "'": '&#39;', '<': '&lt;', '>': '&gt;', '"': '&#34;' })[c]!);
}

const space = /[\t\n\f\r ]/;

/** `html` with the URL-valued attributes of its start tags passed through `rewrite` */
export function rewriteHtmlLinks(html: string, rewrite: (url: string) => string): string {
  let out = '';
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    let end: number;
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      end = close < 0 ? n : close + 3;
    } else if (html[lt + 1] === '!' || html[lt + 1] === '?' || html[lt + 1] === '/') {
      const close = html.indexOf('>', lt + 1);
      end = close < 0 ? n : close + 1;
    } else if (/[A-Za-z]/.test(html[lt + 1] ?? '')) {
      const tag = startTag(html, lt, rewrite);
      out += html.slice(i, lt) + tag.text;
      i = tag.end;
      if (rawText.has(tag.name)) {
        const close = html.toLowerCase().indexOf(`</${tag.name}`, i);
        const stop = close < 0 ? n : close;
        out += html.slice(i, stop);
        i = stop;
      }
      continue;
    } else {
      end = lt + 1;
    }
    out += html.slice(i, end);
    i = end;
  }
  return out + html.slice(i);
}

/** one start tag from `at` (its `<`): its lower-cased name, its text with URLs rewritten, where it ends */
function startTag(html: string, at: number, rewrite: (url: string) => string): { name: string; text: string; end: number } {
  let j = at + 1;
  while (j < html.length && !space.test(html[j]!) && html[j] !== '/' && html[j] !== '>') j++;
  const name = html.slice(at + 1, j).toLowerCase();
  const wanted = urlAttributes[name] ?? [];
  let text = html.slice(at, j);
  while (j < html.length) {
    const c = html[j]!;
    if (c === '>') { text += c; j++; break; }
    if (space.test(c) || c === '/') { text += c; j++; continue; }
    // an attribute: its name, then perhaps `=` and a value
    const nameStart = j;
    while (j < html.length && !space.test(html[j]!) && html[j] !== '/' && html[j] !== '>' && (html[j] !== '=' || j === nameStart)) j++;
    const attr = html.slice(nameStart, j).toLowerCase();
    let k = j;
    while (k < html.length && space.test(html[k]!)) k++;
    if (html[k] !== '=') { text += html.slice(nameStart, j); continue; }
    k++;
    while (k < html.length && space.test(html[k]!)) k++;
    let raw: string;
    let valueEnd: number;
    const q = html[k];
    if (q === '"' || q === "'") {
      const close = html.indexOf(q, k + 1);
      valueEnd = close < 0 ? html.length : close + 1;
      raw = html.slice(k + 1, close < 0 ? html.length : close);
    } else {
      valueEnd = k;
      while (valueEnd < html.length && !space.test(html[valueEnd]!) && html[valueEnd] !== '>') valueEnd++;
      raw = html.slice(k, valueEnd);
    }
    const decoded = wanted.includes(attr) ? decodeValue(raw) : undefined;
    const rewritten = decoded === undefined ? undefined : rewrite(decoded);
    text += rewritten === undefined || rewritten === decoded ? html.slice(nameStart, valueEnd) : `${attr}="${escapeValue(rewritten)}"`;
    j = valueEnd;
  }
  return { name, text, end: j };
}

/**
 * A whole HTML response body with its links rewritten, in its Content-Encoding (gzip, or
 * deflate as Go's flate writes it: raw); undefined for an encoding this cannot read, which
 * is passed on untouched, as kube-apiserver passes it.
 */
export function rewriteHtmlBody(body: Buffer, encoding: string | undefined, rewrite: (url: string) => string): Buffer | undefined {
  const codec = encoding ? codecs[encoding] : { decode: (b: Buffer) => b, encode: (b: Buffer) => b };
  if (!codec) return undefined;
  return codec.encode(Buffer.from(rewriteHtmlLinks(codec.decode(body).toString('utf8'), rewrite), 'utf8'));
}

const codecs: Record<string, { decode(b: Buffer): Buffer; encode(b: Buffer): Buffer }> = {
  gzip: { decode: b => gunzipSync(b), encode: b => gzipSync(b) },
  deflate: { decode: b => inflateRawSync(b), encode: b => deflateRawSync(b, { level: 9 }) },
};
