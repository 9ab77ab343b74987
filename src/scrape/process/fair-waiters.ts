/** A waiter's wake-up call. */
type Grant = () => void;

/**
 * Waiters grouped by fairness key (the team), served in turn between keys and in arrival order
 * within one: a team that queued a hundred pages gets the next free slot only after every other
 * team waiting has had one. A Map keeps insertion order, so the key served moves to the back.
 */
export class FairWaiters {
  private readonly byKey = new Map<string, Set<Grant>>();

  add(key: string, grant: Grant): void {
    const queue = this.byKey.get(key);
    if (queue) queue.add(grant);
    else this.byKey.set(key, new Set([grant]));
  }

  delete(key: string, grant: Grant): void {
    const queue = this.byKey.get(key);
    if (!queue?.delete(grant)) return;
    if (queue.size === 0) this.byKey.delete(key);
  }

  /** Takes the next waiter: the oldest of the key whose turn it is; undefined when none waits. */
  shift(): Grant | undefined {
    const next = this.byKey.entries().next();
    if (next.done) return undefined;
    const [key, queue] = next.value;
    const grant = queue.values().next().value!;
    queue.delete(grant);
    this.byKey.delete(key);
    if (queue.size > 0) this.byKey.set(key, queue);
    return grant;
  }

  get empty(): boolean {
    return this.byKey.size === 0;
  }
}
