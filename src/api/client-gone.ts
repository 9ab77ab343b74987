import type { Context } from 'koa';

/** Aborted when the client closes its connection before its answer was sent. */
export function clientGone(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}
