import type { VNode } from 'preact';
import { Layout } from '../layout';

export function SignInPage(props: { csrf: string; next: string; error?: string }): VNode {
  return (
    <Layout title="Sign in to the dashboard">
      <h1>Sign in</h1>
      <p class="lede">The dashboard shows your workspace's projects, calls and interviews.</p>
      <form method="post" action="/sign-in" class="card">
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="next" value={props.next} />
        {props.error && (
          <p class="error" id="key-error" role="alert">
            {props.error}
          </p>
        )}
        <label for="key">API key</label>
        <input
          id="key"
          name="key"
          type="password"
          autocomplete="off"
          required
          aria-describedby={props.error ? 'key-error key-hint' : 'key-hint'}
        />
        <p class="hint" id="key-hint">
          One of your workspace's API keys (it starts with <code>hk_</code>). You stay signed in for 12 hours on this browser.
        </p>
        <button type="submit">Sign in</button>
      </form>
    </Layout>
  );
}
