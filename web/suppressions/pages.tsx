import type { VNode } from 'preact';
import { Layout } from '../layout';

/** Who a confirmation speaks of, without spelling out the address to whoever holds the link: j•••@example.com. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}•••${email.slice(at)}` : '•••';
}

/**
 * The confirmation a link shows before it changes anything: mail scanners and link previews open every link,
 * so only the button's POST suppresses.
 */
export function ConfirmOptOutPage(props: { title: string; company: string; what: string; action: string; button: string }): VNode {
  return (
    <Layout title={props.title}>
      <h1>{props.title}</h1>
      <p class="lede">{props.company}</p>
      <section class="card">
        <p>{props.what}</p>
        <form method="post" action={props.action}>
          <button type="submit">{props.button}</button>
        </form>
      </section>
    </Layout>
  );
}

export function OptedOutPage(props: { title: string; company: string; what: string; back?: string }): VNode {
  return (
    <Layout title={props.title}>
      <h1>{props.title}</h1>
      <p class="lede">{props.company}</p>
      <section class="card" role="status">
        <p>{props.what}</p>
        {props.back && (
          <p>
            <a href={props.back}>Back to the interview</a>
          </p>
        )}
      </section>
    </Layout>
  );
}
