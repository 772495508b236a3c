/** The bits both fake generators share: a local HTTP server that reads JSON bodies and can be closed with requests hanging. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, url: URL, body: unknown, res: ServerResponse) => void;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	res.writeHead(status, { 'content-type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

export async function listen(handler: Handler): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((req, res) => {
		const parts: Buffer[] = [];
		req.on('data', (part: Buffer) => parts.push(part));
		req.on('end', () => {
			const text = Buffer.concat(parts).toString('utf8');
			let body: unknown;
			try {
				body = text ? JSON.parse(text) : undefined;
			} catch {
				sendJson(res, 400, { detail: 'body is not JSON' });
				return;
			}
			handler(req, new URL(req.url ?? '/', 'http://fake'), body, res);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				// Requests left hanging on purpose would hold close() forever.
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
