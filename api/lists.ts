import type { Context } from 'koa';
import type { Static, TSchema } from '@sinclair/typebox';
import type { ListedItem, ListPage, ListQuery } from '../infra/lists/item-list';
import type { Position } from '../infra/lists/time-index';
import type { SignedTokenStore } from '../stores/signed-tokens';
import { ValidationError } from '../shared/errors';
import type { ListQueryParams } from '../shared/lists/schema';
import { compileValidator } from '../shared/validation';
import type { LimitStore } from '../stores/limits';
import { listReads, withinLimits } from './limits';

type Cursors = SignedTokenStore['cursors'];

/**
 * The list operations' shared part: the query string checked by its TypeBox schema, the cursor verified
 * against the workspace, the list and the query it was made for, one page read through the resource's store
 * (stores/), and each item rendered as its GET renders it.
 */
export function listHandler<S extends TSchema, T extends ListedItem, V>(name: string, schema: S, view: (item: T) => V | Promise<V>) {
  const validate = compileValidator(schema);
  return async (
    list: { page(workspaceId: string, query: ListQuery): Promise<ListPage<T>> },
    tokens: { cursors: Cursors },
    ctx: Context,
    /** The workspace's list reads, when a walking page should take from them (a list that always does takes its own). */
    limits?: Pick<LimitStore, 'listReads'>,
  ) => {
    const workspaceId = ctx.state.workspace._id;
    const q = validate(queryObject(ctx)) as Static<S> & ListQueryParams;
    const { cursor, limit, created_since, updated_since, ...match } = q;
    // A cursor goes with the query that made it: any change of filter makes it foreign.
    const scope = JSON.stringify([workspaceId, name, created_since ?? null, updated_since ?? null, match]);
    const after = await cursorPosition(tokens.cursors, scope, cursor);
    const read = () =>
      list.page(workspaceId, {
        match: match as Record<string, string>,
        createdSince: created_since ? new Date(created_since) : null,
        updatedSince: updated_since ? new Date(updated_since) : null,
        limit,
        after,
      });
    // A page by job, or of everything, reads its own entries; a filter on anything else, and the change feed,
    // walk the workspace's entries (up to 20,000 a page) and cost a list read.
    const walks = updated_since !== undefined || Object.keys(match).some((field) => field !== 'ats_job_id');
    const page = walks && limits ? await withinLimits(ctx, [listReads(limits)], read) : await read();
    return {
      success: true as const,
      data: await Promise.all(page.items.map(view)),
      next_cursor: page.next ? await tokens.cursors.encode({ scope, position: page.next }) : null,
    };
  };
}

/**
 * Where a page starts: null without a cursor; the cursor's position when this service signed it for `scope`;
 * otherwise the request is refused (400 naming `cursor`), with `refusal` saying what it is not.
 */
export async function cursorPosition(
  cursors: Cursors,
  scope: string,
  cursor: string | undefined,
  refusal = 'is not a cursor of this list and query; pass next_cursor as it was given, with the same filters',
): Promise<Position | null> {
  if (!cursor) return null;
  const after = await cursors.decode(scope, cursor);
  if (!after) throw new ValidationError('Request validation failed', [{ path: ['cursor'], message: refusal }]);
  return after;
}

/** The query string as an object; `limit` as a number when it is written as one, so the schema can check it. */
export function queryObject(ctx: Context): Record<string, unknown> {
  const query: Record<string, unknown> = { ...ctx.query };
  if (typeof query.limit === 'string' && /^-?[0-9]+$/.test(query.limit)) query.limit = Number(query.limit);
  return query;
}
