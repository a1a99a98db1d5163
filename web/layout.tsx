import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { Context } from 'koa';
import { STYLESHEET_PATH } from './assets/routes';

/**
 * The frame of every page. Templates are Preact components rendered on the server: every text and attribute
 * value is escaped by the renderer, so no page builds HTML from strings.
 */
export function Layout(props: { title: string; children: ComponentChildren; head?: ComponentChildren; header?: ComponentChildren }): VNode {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        {/* No icon: without this line every browser asks for /favicon.ico, a 404 on every page. */}
        <link rel="icon" href="data:," />
        {props.head}
      </head>
      <body>
        {props.header}
        <main>{props.children}</main>
      </body>
    </html>
  );
}

/** Answers with a page. */
export function sendPage(ctx: Context, status: number, page: VNode): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html>${renderToString(page)}`;
}

/** A page that says something went wrong, and what the reader can do. */
export function MessagePage(props: { title: string; children: ComponentChildren }): VNode {
  return (
    <Layout title={props.title}>
      <h1>{props.title}</h1>
      {props.children}
    </Layout>
  );
}
