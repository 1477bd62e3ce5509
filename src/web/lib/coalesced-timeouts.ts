import type { TimeoutProvider } from '@tanstack/react-query';

interface Pending {
  due: number;
  callback: () => void;
}

/**
 * React Query's timers (a query's staleness, its cache lifetime, a retry's wait) kept on one platform timer,
 * armed for the earliest of them: the provider React Query's `timeoutManager` accepts for that purpose.
 * A page's first screen sets a score of them and cancels most within the same task (every prefetched query
 * starts its cache-lifetime timer, which its first observer cancels, then sets its own staleness timer).
 * Each platform call is a trace event with a captured stack under Lighthouse (0.4 ms and more on the test
 * machine, inside the commit that shows the page); here they cost a map entry. Intervals stay the platform's.
 */
export function coalescedTimeouts(): TimeoutProvider<number> {
  const pending = new Map<number, Pending>();
  let lastId = 0;
  let armed: { due: number; handle: ReturnType<typeof setTimeout> } | null = null;

  function armFor(due: number) {
    if (armed) clearTimeout(armed.handle);
    armed = { due, handle: setTimeout(fire, Math.max(0, due - performance.now())) };
  }

  function fire() {
    armed = null;
    const now = performance.now();
    const due: [number, Pending][] = [];
    let next = Infinity;
    for (const entry of pending) {
      if (entry[1].due <= now) due.push(entry);
      else if (entry[1].due < next) next = entry[1].due;
    }
    if (next !== Infinity) armFor(next);
    // Earliest first, as separate platform timers would have run; each stays pending until its turn, so one
    // cleared by a timer that ran before it is skipped. One that throws does not keep the others from
    // running; its error leaves this platform timer's callback afterwards, uncaught as it would have been.
    const errors: unknown[] = [];
    for (const [id, timer] of due.sort((a, b) => a[1].due - b[1].due)) {
      if (!pending.delete(id)) continue;
      try {
        timer.callback();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} timers failed`);
  }

  return {
    setTimeout(callback, delay) {
      const id = ++lastId;
      const due = performance.now() + Math.max(0, delay);
      pending.set(id, { due, callback });
      if (!armed || due < armed.due) armFor(due);
      return id;
    },
    // A cancelled timer is forgotten; the platform timer armed for it wakes once for nothing and re-arms.
    clearTimeout(id) {
      if (id !== undefined) pending.delete(id);
    },
    setInterval: (callback, delay) => setInterval(callback, delay),
    clearInterval: (id) => clearInterval(id),
  };
}
