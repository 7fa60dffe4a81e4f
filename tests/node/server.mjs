// The TypeScript SDK's McpServer over streamable HTTP on a loopback port, for mcp-touchstone's
// leak matrix and audit tests.  `node server.mjs PORT MODE`:
//   MODE "disabled": the privileged tool/prompt/resource/template are registered and then
//                    disabled with their handles' .disable() -- for every caller, except that
//                    the bearer token "root" gets them enabled (a per-request server, the SDK's
//                    stateless pattern, so hiding can follow the caller);
//   MODE "absent":   they are never registered (what a nonexistent component answers).
// Prints "listening PORT" once the socket is open.  Stateless, JSON responses.
import http from 'node:http';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';

const port = Number(process.argv[2] || 0);
const mode = process.argv[3] || 'disabled';
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function build(privileged) {
  const server = new McpServer({ name: 'touchstone-demo', version: '1.0.0' });
  server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => text(String(a + b)));
  server.registerPrompt('hello', {}, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }));
  server.registerResource('public', 'res://public', {}, async (uri) => ({
    contents: [{ uri: uri.href, text: 'public' }] }));
  server.registerResource('notes', new ResourceTemplate('notes://{id}', { list: undefined }), {},
    async (uri) => ({ contents: [{ uri: uri.href, text: 'note' }] }));
  if (mode !== 'absent') {
    const handles = [
      server.registerTool('delete_user', { inputSchema: { name: z.string() } },
        async ({ name }) => text(`deleted ${name}`)),
      server.registerPrompt('admin_prompt', {}, async () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'admin' } }] })),
      server.registerResource('secret', 'res://secret', {}, async (uri) => ({
        contents: [{ uri: uri.href, text: 'secret' }] })),
      server.registerResource('vault', new ResourceTemplate('vault://{id}', { list: undefined }), {},
        async (uri) => ({ contents: [{ uri: uri.href, text: 'vault' }] })),
    ];
    if (!privileged) handles.forEach((h) => h.disable());
  }
  return server;
}

const httpServer = http.createServer(async (req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  let body;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    return;
  }
  const privileged = req.headers.authorization === 'Bearer root';
  const server = build(privileged);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => { transport.close(); server.close(); });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
});

httpServer.listen(port, '127.0.0.1', () => {
  console.log(`listening ${httpServer.address().port}`);
});
