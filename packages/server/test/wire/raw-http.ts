import { request as httpRequest } from 'node:http';
import type { Readable } from 'node:stream';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * Sends one HTTP request with exactly these headers (including `Host`, which fetch will not let a
 * caller set) and this body: bytes, or a stream sent chunked with no Content-Length.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Uint8Array | string | Readable },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers ?? {} },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        response.on('error', reject);
      },
    );
    // The server may answer (413) and close before the whole body is sent: that answer is what counts.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const body = options.body;
    if (body === undefined) request.end();
    else if (typeof body === 'string' || body instanceof Uint8Array) request.end(body);
    else body.pipe(request);
  });
}
