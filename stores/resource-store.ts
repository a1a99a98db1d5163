import type { Collection, Document, Filter, OptionalId, UpdateFilter } from 'mongodb';
import { insertEach, type WriteResult } from '../infra/duplicate-key';
import { asUnavailable } from '../infra/unavailable';
import { erasedWritesRefused } from '../infra/metrics';
import type { ItemList, ListedItem } from '../infra/lists/item-list';
import { eventKey, recordEvent, withEvent, type Announce, type EventRecord, type Announcement } from '../infra/webhooks/events';
import type { WebhookEventType } from '../shared/webhooks/schema';

/**
 * The one door through which a call or an interview changes (the repository per aggregate): its insert and
 * its list entries, its status moves checked against its transition table, its webhook events recorded in
 * the write that makes them and announced from the document that write returned. stores/calls.ts and
 * stores/interviews.ts give it their resource's table, event keys and view.
 */

/** An event a change makes: its type, and its occurrence (an attempt's number, a deadline…), which make its key. */
export interface ResourceEvent<E extends WebhookEventType = WebhookEventType> {
  type: E;
  occurrence: string | number;
}

/** One change of a resource: everything it sets, in one write. */
export interface Change<S extends string, E extends WebhookEventType> {
  /** The new status; checked against the resource's transition table. */
  to?: S;
  /** What happened: recorded on the resource in this write, then announced to the workspace's webhooks. */
  events?: Array<ResourceEvent<E>>;
  set?: Record<string, unknown>;
  push?: Record<string, unknown>;
  pop?: Record<string, 1 | -1>;
}

/** A status move the resource's transition table does not allow: a defect of the code that asked for it. */
export class InvalidTransitionError extends Error {
  constructor(resource: string, id: string, from: string, to: string) {
    super(`${resource} ${id} cannot move from ${from} to ${to}`);
    this.name = 'InvalidTransitionError';
  }
}

/**
 * A change that was written, but whose events could not be announced (the database or Temporal failed
 * between the two). `item` is the resource as the write left it; a retry of the step, whose change is then
 * found made, announces them.
 */
export class NotAnnouncedError extends Error {
  constructor(
    readonly item: unknown,
    cause: unknown,
  ) {
    super(`the change was written, but its events were not announced: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'NotAnnouncedError';
  }
}

export interface ResourceSpec<T extends ListedItem, S extends string> {
  /** The resource's name in messages ("call"). */
  name: string;
  collection: Collection<T>;
  list: ItemList<T>;
  mayMove(from: S, to: S): boolean;
  /** The resource as its events show it, from the document the write that recorded `key` returned. */
  announcement(doc: T, key: string): Announcement;
  /** Hands the events a change recorded to the workspace's webhooks (infra/webhooks/events.ts). */
  announce: Announce;
  /** Tells an ATS order's report workflow that its interview or call changed (workflows/partner-pushes.ts). */
  partnerChanged?: (assessmentId: string) => Promise<void>;
  /**
   * What an erasure leaves of the item's fields about the person: a change that writes one of them and finds
   * the item erased is written over with it.
   */
  erasedForm(doc: T): Record<string, unknown>;
  /**
   * Counts what happened in the service's metrics (infra/metrics.ts): each new item, and each change with the
   * events its write recorded first. A retried step finds its status moved and its events recorded already,
   * so nothing is counted twice; a change is counted by the process whose write made it.
   */
  count?: {
    created(docs: T[]): void;
    changed(before: T, after: T, firstEvents: Array<{ type: WebhookEventType; key: string }>): void;
  };
}

export interface ResourceStore<T extends ListedItem, S extends string, E extends WebhookEventType> {
  /** Every item of the workspace (or of every workspace), oldest first: an operator's walk (admin people:index). */
  every(workspaceId: string | null): AsyncIterable<T>;
  /** Inserts new items, each once, and lists those written; what each insert did, in order. */
  create(docs: T[]): Promise<WriteResult[]>;
  /** Items a request took back before it answered: out of the lists, then deleted. */
  takeBack(docs: T[]): Promise<void>;
  /**
   * Changes the item: its feed entry, then the change with its events' keys and a new `updated_at`, its
   * snapshot, then the announcement of its events. The item as the write left it; null when it is gone.
   * Throws NotAnnouncedError when the write was made but its announcement failed.
   *
   * A change found made already is a repeat (a retried step, a provider's redelivered callback, a workflow that
   * reads where an interview stands): a change of events alone, and perhaps the status they came with, all of
   * which the item has. Nothing is written; its events are announced again, in case the write that made them
   * stopped before announcing them. Announcing is idempotent (infra/webhooks/events.ts), so a repeat is how a
   * step makes sure its events went out, and no caller announces anything itself.
   */
  change(doc: T, change: Change<S, E>): Promise<T | null>;
  /**
   * Writes what is not a change in the feed (a provider's id or live status, a calling slot): the item, never
   * its `updated_at` nor its status. The item as the write left it; null when it is gone.
   */
  note(id: string, set: Record<string, unknown>): Promise<T | null>;
  /** Whether a write recorded the event on the item (and it is announced, or found made by a repeat). */
  hasRecorded(doc: T, event: ResourceEvent<E>): boolean;
  page: ItemList<T>['page'];
  entriesOfJob: ItemList<T>['entriesOfJob'];
}

/** Fields a change never sets through `set`: each has its own part of the change. */
const OWN_PARTS = ['status', 'updated_at', 'events', 'sequence'];

export function resourceStore<T extends ListedItem & EventRecord & Document & { status: S }, S extends string, E extends WebhookEventType>(
  spec: ResourceSpec<T, S>,
): ResourceStore<T, S, E> {
  const { list, collection, announce } = spec;
  const keyed = (events: Array<ResourceEvent<E>>) => events.map((e) => ({ type: e.type, key: eventKey(e.type, e.occurrence) }));
  const checkSet = (set: Record<string, unknown> | undefined, what: string) => {
    const own = Object.keys(set ?? {}).filter((k) => OWN_PARTS.includes(k));
    if (own.length > 0) throw new Error(`${what} of a ${spec.name} cannot set ${own.join(', ')} directly`);
  };

  /** Announces each event from `doc`, which has its key recorded (or gets it recorded now, by a note's write). */
  async function announceFrom(doc: T, events: Array<{ type: E; key: string }>): Promise<void> {
    if (events.length === 0) return;
    // An ATS's order hears of each change that made events, as the webhooks do (its result may be new).
    const order = (doc as { partner_assessment_id?: string }).partner_assessment_id;
    if (order && spec.partnerChanged) await spec.partnerChanged(order);
    await announce(
      doc.workspace_id,
      ...events.map(({ type, key }) => ({
        type,
        about: async () => {
          const recorded = await withEvent(doc, key, (update) => touch(doc._id, update as unknown as UpdateFilter<T>));
          return recorded && spec.announcement(recorded, key);
        },
      })),
    );
  }
  const touch = (id: string, update: UpdateFilter<T>) => list.touch(id, update);
  async function takeBack(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    // Side by side: in a database outage the request waits for one failed write, not two. One exact `_id`
    // each: FerretDB pushes down no `$in`, so a deleteMany would scan the collection.
    await Promise.all([list.forget(docs), ...docs.map((d) => collection.deleteOne({ _id: d._id } as Filter<T>))]);
  }

  return {
    async create(docs) {
      const written = await insertEach(collection, docs as unknown as OptionalId<T>[]);
      const fresh = docs.filter((_, i) => written[i] === 'written');
      try {
        await list.created(fresh);
        spec.count?.created(fresh);
      } catch (err) {
        // An outage: the request is a 503, and its retry resolves what it wrote (bulk-requests.md).
        const down = asUnavailable(err);
        if (down) throw down;
        // Written but not listed: taken back, and counted as not written, so the caller's entries fail with a
        // retry (and give their claims back) as they do for an insert that failed.
        await takeBack(fresh).catch(() => undefined);
        return written.map((w) => (w === 'written' ? 'error' : w));
      }
      return written;
    },

    takeBack,

    async change(doc, { to, events = [], set, push, pop }) {
      if (to !== undefined && !spec.mayMove(doc.status, to)) throw new InvalidTransitionError(spec.name, doc._id, doc.status, to);
      checkSet(set, 'A change');
      const keyedEvents = keyed(events);
      if (isRepeat(doc, { to, keys: keyedEvents.map((e) => e.key), set, push, pop })) {
        try {
          await announceFrom(doc, keyedEvents);
        } catch (err) {
          throw new NotAnnouncedError(doc, err);
        }
        return doc;
      }
      const { item } = await list.update(
        doc,
        to === undefined ? {} : { status: to },
        (at) =>
          ({
            ...(keyedEvents.length > 0 ? recordEvent(...keyedEvents.map((h) => h.key)) : {}),
            $set: { ...set, ...(to === undefined ? {} : { status: to }), updated_at: at },
            ...(push ? { $push: push } : {}),
            ...(pop ? { $pop: pop } : {}),
          }) as unknown as UpdateFilter<T>,
      );
      if (!item) return item;
      // A change that writes what the person said or is (their details, answers, transcript…) and lands on an item
      // erased since it was read is written over with the erased form (docs/erasure.md). Checked on the document
      // the write returns, so the write stays a match on `_id` alone, the one filter FerretDB answers from its
      // index, and only for an erased item, so no other change pays for it; a status move, a time or a reason is
      // left as it landed.
      if (item.erased_at && !(set && 'erased_at' in set) && writesAbout(spec.erasedForm(item), set, push)) {
        await touch(doc._id, { $set: spec.erasedForm(item) } as unknown as UpdateFilter<T>);
        erasedWritesRefused.inc({ kind: spec.name === 'call' ? 'call' : 'interview' });
        return null;
      }
      spec.count?.changed(
        doc,
        item,
        keyedEvents.filter((e) => !doc.events?.includes(e.key)),
      );
      try {
        await announceFrom(item, keyedEvents);
      } catch (err) {
        throw new NotAnnouncedError(item, err);
      }
      return item;
    },

    async note(id, set) {
      checkSet(set, 'A note');
      return touch(id, { $set: set } as unknown as UpdateFilter<T>);
    },

    hasRecorded: (doc, event) => doc.events?.includes(eventKey(event.type, event.occurrence)) ?? false,
    page: (ws, q) => list.page(ws, q),
    every: (workspaceId) =>
      collection.find((workspaceId ? { workspace_id: workspaceId } : {}) as Filter<T>).sort({ created_at: 1 }) as AsyncIterable<T>,
    entriesOfJob: (ws, job) => list.entriesOfJob(ws, job),
  };
}

/** Whether a change's `set` or `push` writes one of the fields of `erasedForm` (or a path inside one). */
function writesAbout(erasedForm: Record<string, unknown>, set?: object, push?: object): boolean {
  const fields = Object.keys(erasedForm);
  return [set, push].some((part) => Object.keys(part ?? {}).some((k) => fields.includes(k.split('.')[0])));
}

/** A change of events alone (and the status they came with) that the item has all of: a repeat of one made. */
function isRepeat(
  doc: EventRecord & { status: string },
  c: { to?: string; keys: string[]; set?: object; push?: object; pop?: object },
): boolean {
  if (c.set || c.push || c.pop || c.keys.length === 0) return false;
  return (c.to === undefined || c.to === doc.status) && c.keys.every((k) => doc.events?.includes(k));
}
