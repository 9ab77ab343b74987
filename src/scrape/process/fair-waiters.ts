/** A waiter's wake-up call. */
type Grant = () => void;

/**
 * Waiters grouped by fairness key (the team), served in turn between keys and in arrival order
 * within one: a team that queued a hundred pages gets the next free slot only after every other
 * team waiting has had one, and a team that starts waiting goes first (it has had no turn
 * lately). A Map keeps insertion order: the key served moves to the back, a new key goes in front.
 */
export class FairWaiters {
  private byKey = new Map<string, Set<Grant>>();

  add(key: string, grant: Grant): void {
    const queue = this.byKey.get(key);
    if (queue) queue.add(grant);
    else this.byKey = new Map([[key, new Set([grant])], ...this.byKey]);
  }

  delete(key: string, grant: Grant): void {
    const queue = this.byKey.get(key);
    if (!queue?.delete(grant)) return;
    if (queue.size === 0) this.byKey.delete(key);
  }

  /**
   * Takes the next waiter: the oldest of the first key, in turn, that `eligible` lets through;
   * undefined when none does.
   */
  shift(eligible: (key: string) => boolean = () => true): { key: string; grant: Grant } | undefined {
    for (const [key, queue] of this.byKey) {
      if (!eligible(key)) continue;
      const grant = queue.values().next().value!;
      queue.delete(grant);
      this.byKey.delete(key);
      if (queue.size > 0) this.byKey.set(key, queue);
      return { key, grant };
    }
    return undefined;
  }
}
