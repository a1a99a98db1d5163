import type { ComponentChildren, VNode } from 'preact';
import { Layout } from '../layout';
import type { CallLinkView } from '../../operations/call-candidate-links';
import type { ExtractVariable } from '../../shared/calls/schema';
import { localTime } from '../../shared/calls/candidate-link';

const dayOf = (at: number, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long' }).format(at);
const hourOf = (at: number, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' }).format(at);

/** How the call stands, in a sentence. */
function standing({ call, company, zone }: CallLinkView): string {
  switch (call.status) {
    case 'scheduled':
      if (call.form_until)
        return `We could not reach you by phone. You can still answer in writing until ${localTime(call.form_until, zone)} (${zone} time).`;
      return call.next_attempt_at
        ? `We plan to call you on ${localTime(call.next_attempt_at, zone)} (${zone} time).`
        : 'We will call you soon.';
    case 'waiting_for_capacity':
      return 'We will call you as soon as a line is free.';
    case 'in_progress':
    case 'cancelling':
      return 'We are calling you now.';
    case 'completed':
      return `Thank you: your answers reached ${company}. There is nothing more to do.`;
    case 'declined':
      return `You told us you are not interested. ${company} will not call you about this role.`;
    case 'failed':
      return 'We could not reach you, and the call has ended.';
    case 'cancelled':
      return call.cancel_reason === 'opted_out' ? 'You asked not to be contacted again.' : 'This call was called off.';
  }
}

/** The candidate's page of their call (`/call/{token}`): where it stands, and what they can choose. */
export function CallLinkPage(props: { view: CallLinkView; path: string; notice?: string | null; errors?: string[] }): VNode {
  const { view, path, notice, errors } = props;
  const offers = new Set(view.offered);
  return (
    <Layout title={`Your call about ${view.jobTitle}`}>
      <h1>Your call about {view.jobTitle}</h1>
      <p class="lede">{view.company}</p>
      <section class="card" role="status">
        <p>{standing(view)}</p>
        {notice && <p class="notice">{notice}</p>}
      </section>
      {offers.has('call_now') && (
        <OneButton title="Call me now" action={`${path}/now`} button="Call me now">
          Your phone rings within 30 seconds.
        </OneButton>
      )}
      {offers.has('pick_time') && view.slots.length > 0 && (
        <section class="card">
          <h2>Pick a time</h2>
          <form method="post" action={`${path}/time`}>
            <label for="at">A time that suits you ({view.zone} time)</label>
            <select id="at" name="at" required>
              {groupByDay(view.slots, view.zone).map(([day, slots]) => (
                <optgroup label={day}>
                  {slots.map((at) => (
                    <option value={String(at)}>{`${day}, ${hourOf(at, view.zone)}`}</option>
                  ))}
                </optgroup>
              ))}
            </select>
            <p class="hint">You can move the call {view.movesLeft === 1 ? 'once more' : `${view.movesLeft} more times`}.</p>
            <button type="submit">Call me then</button>
          </form>
        </section>
      )}
      {offers.has('form') && view.questions.length > 0 && (
        <section class="card">
          <h2>Answer in writing</h2>
          <p>Rather not talk? Answer the call's questions here, and we will not call.</p>
          {errors && errors.length > 0 && (
            <ul class="error" id="form-errors" role="alert">
              {errors.map((e) => (
                <li>{e}</li>
              ))}
            </ul>
          )}
          <form method="post" action={`${path}/form`}>
            {view.questions.map((q, n) => (
              <Field question={q} id={`q${n}`} />
            ))}
            <button type="submit">Send my answers</button>
          </form>
        </section>
      )}
      {offers.has('decline') && (
        <OneButton title="Not interested" action={`${path}/decline`} button="I'm not interested">
          We will not call you about this role. {view.company} may still contact you about others.
        </OneButton>
      )}
      {view.open && (
        <p>
          <a href={`${path}/stop`}>Stop contacting me</a>
        </p>
      )}
    </Layout>
  );
}

/** A choice that is one button: its heading, what it does, and the form that posts it. */
function OneButton(props: { title: string; action: string; button: string; children: ComponentChildren }): VNode {
  return (
    <section class="card">
      <h2>{props.title}</h2>
      <p>{props.children}</p>
      <form method="post" action={props.action}>
        <button type="submit">{props.button}</button>
      </form>
    </section>
  );
}

/** One question of the written form, as the person reads it: the variable's description, an input of its type. */
function Field({ question: q, id }: { question: ExtractVariable; id: string }): VNode {
  const example = q.format_example ?? (q.type === 'array' ? 'one per line' : undefined);
  const hint = example ? <p class="hint">For example: {example}</p> : null;
  if (q.type === 'boolean' || q.type === 'single_select') {
    const choices = q.type === 'boolean' ? ['Yes', 'No'] : (q.choices ?? []);
    return (
      <fieldset>
        <legend>{q.description}</legend>
        {choices.map((c, n) => (
          <label for={`${id}-${n}`} class="choice">
            <input type="radio" id={`${id}-${n}`} name={q.label} value={c} required /> {c}
          </label>
        ))}
      </fieldset>
    );
  }
  const type =
    q.type === 'number' || q.type === 'integer' ? 'number' : q.type === 'date' ? 'date' : q.type === 'datetime' ? 'datetime-local' : 'text';
  return (
    <p>
      <label for={id}>{q.description}</label>
      {type === 'text' ? (
        <textarea id={id} name={q.label} rows={2} maxLength={2_000} required />
      ) : (
        <input id={id} name={q.label} type={type} required {...(q.type === 'number' ? { step: 'any' } : {})} />
      )}
      {hint}
    </p>
  );
}

function groupByDay(slots: number[], zone: string): Array<[string, number[]]> {
  const days = new Map<string, number[]>();
  for (const at of slots) {
    const day = dayOf(at, zone);
    days.set(day, [...(days.get(day) ?? []), at]);
  }
  return [...days];
}
