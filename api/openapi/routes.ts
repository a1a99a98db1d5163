import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Router from '@koa/router';
import { handleErrors, plainFamily } from '../errors';
import { openApiDocument } from './document';

/**
 * GET /openapi.json, the API's own description, and GET /docs, a reference page rendered from it by Swagger
 * UI, served from the swagger-ui-dist package's files: no CDN, so it works offline. Both are open, like the
 * health checks; they describe the API and hold no workspace data.
 */
const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: join(SWAGGER_UI, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: join(SWAGGER_UI, 'swagger-ui-bundle.js'), type: 'application/javascript; charset=utf-8' },
};

// The page runs no inline script, and Swagger UI's online validator badge is off, so nothing leaves the page.
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Hiring integration API reference</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="reference"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/assets/reference.js"></script>
  </body>
</html>
`;
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, validatorUrl: null, docExpansion: 'list' });\n`;
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'";

/**
 * The document and the page's assets, made on first use and kept for the process: they never change while it
 * runs, and most processes that build the routes never serve them (the test suite built the document, 25 to
 * 35 ms of CPU, and read Swagger UI's 1.4 MB for each of its 60 stacks).
 */
let document: string | undefined;
let assets: Map<string, { body: Buffer; type: string }> | undefined;
const theDocument = () => (document ??= JSON.stringify(openApiDocument()));
const theAssets = () =>
  (assets ??= new Map(Object.entries(ASSETS).map(([name, a]) => [name, { body: readFileSync(a.file), type: a.type }])));

export function referenceRoutes(): Router {
  const router = new Router();
  router.use(handleErrors(plainFamily));
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = theDocument();
  });
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/docs/assets/reference.js', (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = INIT;
  });
  router.get('/docs/assets/:name', (ctx, next) => {
    const asset = theAssets().get(ctx.params.name);
    if (!asset) return next();
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });
  return router;
}
