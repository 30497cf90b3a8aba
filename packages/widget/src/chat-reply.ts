import { Lexer, type Token, type Tokens } from 'marked';

export { parseTranscript, type KeptTurn } from './transcript.ts';

/**
 * What every chat surface shares to show a reply: the server-sent events of a streamed chat
 * answer, read as they arrive, and markdown turned into DOM nodes. The reply's text only ever
 * becomes text nodes and a few elements made here: never markup (no innerHTML of reply text).
 */

export type ChatEvent = { type: 'delta'; text: string } | { type: 'done'; reply: string } | { type: 'error'; error: string };

/** The events of a `text/event-stream` chat answer; comment lines (keep-alives) are skipped. */
export async function* readChatEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const event = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event) yield event;
        end = buffer.indexOf('\n\n');
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function parseEvent(block: string): ChatEvent | null {
  let name = '';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event: ')) name = line.slice(7);
    else if (line.startsWith('data: ')) data += line.slice(6);
  }
  try {
    const parsed = JSON.parse(data) as Record<string, unknown>;
    if (name === 'delta' && typeof parsed.text === 'string') return { type: 'delta', text: parsed.text };
    if (name === 'done' && typeof parsed.reply === 'string') return { type: 'done', reply: parsed.reply };
    if (name === 'error') return { type: 'error', error: String(parsed.error) };
  } catch {
    // Not an event of ours: a comment, or a line cut short.
  }
  return null;
}

const SAFE_LINK = /^(?:https?:|mailto:)/i;

/**
 * The reply's markdown as DOM nodes: paragraphs, headings (as bold paragraphs), lists, bold,
 * italics, inline code, code blocks, quotes and links. Links only for http:, https: and mailto:,
 * opening in a new tab without an opener; anything else (raw HTML included) stays text.
 */
export function renderMarkdown(text: string, doc: Document = document): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  appendTokens(fragment, new Lexer({ gfm: true, breaks: true }).lex(text), doc);
  return fragment;
}

/** How a reply that did not finish ends: the visitor stopped it, or the provider broke off midway. */
export const REPLY_ENDINGS = { stopped: ' (stopped)', interrupted: ' (interrupted)' } as const;

/** The elements that end a line of a rendered reply. */
const LINE_ENDS = new Set(['P', 'LI', 'PRE', 'BLOCKQUOTE', 'BR', 'HR']);

/**
 * A reply's words as a sighted reader reads them once rendered: no markdown signs, one line per
 * paragraph, list item or line break. For a live region, which would read the signs out.
 */
export function replyText(text: string, doc: Document = document): string {
  const lines = [''];
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === child.TEXT_NODE) lines[lines.length - 1] += child.textContent ?? '';
      walk(child);
      if (LINE_ENDS.has(child.nodeName)) lines.push('');
    }
  };
  walk(renderMarkdown(text, doc));
  return lines
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

function appendTokens(parent: Node, tokens: Token[], doc: Document): void {
  for (const token of tokens) appendToken(parent, token, doc);
}

function element(doc: Document, tag: string, parent: Node, children?: Token[]): HTMLElement {
  const made = doc.createElement(tag);
  parent.appendChild(made);
  if (children) appendTokens(made, children, doc);
  return made;
}

function appendToken(parent: Node, token: Token, doc: Document): void {
  switch (token.type) {
    case 'paragraph':
      element(doc, 'p', parent, (token as Tokens.Paragraph).tokens);
      return;
    case 'heading':
      element(doc, 'strong', element(doc, 'p', parent), (token as Tokens.Heading).tokens);
      return;
    case 'list': {
      const list = token as Tokens.List;
      const made = element(doc, list.ordered ? 'ol' : 'ul', parent);
      for (const item of list.items) element(doc, 'li', made, item.tokens);
      return;
    }
    case 'code':
      element(doc, 'code', element(doc, 'pre', parent)).textContent = (token as Tokens.Code).text;
      return;
    case 'blockquote':
      element(doc, 'blockquote', parent, (token as Tokens.Blockquote).tokens);
      return;
    case 'strong':
    case 'em':
    case 'del':
      element(doc, token.type === 'del' ? 's' : token.type, parent, (token as Tokens.Strong).tokens);
      return;
    case 'codespan':
      element(doc, 'code', parent).textContent = (token as Tokens.Codespan).text;
      return;
    case 'br':
      element(doc, 'br', parent);
      return;
    case 'hr':
      element(doc, 'hr', parent);
      return;
    case 'link': {
      const link = token as Tokens.Link;
      if (!SAFE_LINK.test(link.href.trim())) {
        // Not a link we make (javascript:, data:, a relative path): its source, as text.
        parent.appendChild(doc.createTextNode(link.raw));
        return;
      }
      const anchor = element(doc, 'a', parent, link.tokens) as HTMLAnchorElement;
      anchor.href = link.href.trim();
      anchor.target = '_blank';
      anchor.rel = 'noopener noreferrer';
      return;
    }
    case 'text': {
      const textToken = token as Tokens.Text;
      if (textToken.tokens?.length) appendTokens(parent, textToken.tokens, doc);
      else parent.appendChild(doc.createTextNode(decodeEntities(textToken.text)));
      return;
    }
    case 'space':
      return;
    case 'escape':
      parent.appendChild(doc.createTextNode((token as Tokens.Escape).text));
      return;
    default:
      // html, tables, images and anything newer: their source, as text.
      parent.appendChild(doc.createTextNode(token.raw));
  }
}

/** marked escapes &, <, >, " and ' in text tokens; text nodes want the characters back. */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_match, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '');
}
