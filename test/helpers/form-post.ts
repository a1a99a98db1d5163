import { request } from 'node:http';

/** A form post with exactly these headers, as node:http sends them. */
export function postForm(url: string, headers: Record<string, string>, form = 'consent=given'): Promise<{ status: number; type: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']) }));
    });
    req.on('error', reject);
    req.end(form);
  });
}
