import type { OpenApiDocument } from './openapi.ts';

// /api/docs: the OpenAPI document rendered as one self-contained HTML page (no scripts,
// nothing fetched), so it reads offline and behind any proxy.

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** `code` spans for backticks, nothing else: descriptions are plain text. */
const prose = (text: string | undefined) => (text ? escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>') : '');

const schemaBlock = (schema: unknown) => `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;

interface Operation {
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, unknown>[];
  parameters: { name: string; in: string; required: boolean; description?: string; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;
}

const AUTH_LABELS: Record<string, string> = {
  session: 'Session cookie (sign in first)',
  botToken: 'Authorization: Bearer cbt_…',
  llmKey: 'Header x-llm-api-key: your own provider key',
};

const renderOperation = (method: string, path: string, operation: Operation) => {
  const auth = operation.security.map((entry) => AUTH_LABELS[Object.keys(entry)[0]!] ?? '').join(', ') || 'None';
  const parameters = operation.parameters.length
    ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th><th>Description</th></tr>${operation.parameters
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(
              JSON.stringify(p.schema),
            )}</code></td><td>${prose(p.description)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const body = operation.requestBody
    ? `<h4>Request body (${Object.keys(operation.requestBody.content).map(escapeHtml).join(' or ')})</h4>${schemaBlock(
        Object.values(operation.requestBody.content)[0]!.schema,
      )}`
    : '';
  const responses = Object.entries(operation.responses)
    .map(([status, response]) => {
      const content = response.content ? Object.entries(response.content)[0] : undefined;
      const headers = response.headers ? ` Headers: ${Object.keys(response.headers).map((h) => `<code>${escapeHtml(h)}</code>`).join(', ')}.` : '';
      return `<details><summary><b>${status}</b> ${prose(response.description)}${headers}</summary>${
        content ? `<p><code>${escapeHtml(content[0])}</code></p>${schemaBlock(content[1].schema)}` : '<p>No body.</p>'
      }</details>`;
    })
    .join('');
  return `<section class="op" id="${escapeHtml(`${method}-${path}`)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p><b>${prose(operation.summary)}</b></p><p>${prose(operation.description)}</p>
<p>Authentication: ${escapeHtml(auth)}</p>${parameters}${body}<h4>Responses</h4>${responses}</section>`;
};

export const renderDocsPage = (document: OpenApiDocument): string => {
  const byTag = new Map<string, string[]>();
  const index: string[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const operation = raw as Operation;
      const tag = operation.tags[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(method, path, operation)]);
      index.push(
        `<li><a href="#${escapeHtml(`${method}-${path}`)}"><span class="method ${method}">${method.toUpperCase()}</span> ${escapeHtml(path)}</a></li>`,
      );
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:1000px;margin:2rem auto;padding:0 1rem;color:#1f2937}
code,pre{font:13px ui-monospace,monospace}pre{background:#f3f4f6;padding:.75rem;overflow:auto;border-radius:6px}
.op{border-top:1px solid #e5e7eb;padding:1rem 0}.method{display:inline-block;min-width:4.5em;text-align:center;border-radius:4px;color:#fff;font-size:12px;padding:1px 6px}
.get{background:#2563eb}.post{background:#059669}.patch{background:#d97706}.delete{background:#dc2626}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #e5e7eb;padding:4px 6px;text-align:left;vertical-align:top}
ul.index{columns:2;list-style:none;padding:0}ul.index a{text-decoration:none}
</style></head><body>
<h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p>${prose(document.info.description)}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).
Error bodies always carry <code>error</code>; unknown routes answer <code>404 {"error":"not_found"}</code>, unexpected failures
<code>500 {"error":"internal_error"}</code>, and a database outage <code>503 {"error":"service_unavailable"}</code> with <code>Retry-After</code>.</p>
<ul class="index">${index.join('')}</ul>
${[...byTag].map(([tag, operations]) => `<h2>${escapeHtml(tag)}</h2>${operations.join('\n')}`).join('\n')}
</body></html>`;
};
