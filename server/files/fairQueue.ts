/**
 * Work of many members on a few slots, fairly: at most `slots` pieces at once, one member's at most
 * half of them (at least one), so that while one member sends many heavy files another member's file
 * finds a slot free; waiting work is started member by member in turn, each member's in its order.
 */
export function createFairQueue(slots: number) {
  const perMember = Math.max(1, Math.ceil(slots / 2));
  let running = 0;
  const held = new Map<string, number>();
  // Members with waiting work, in the order they are served: one served goes to the end.
  const waiting = new Map<string, (() => void)[]>();

  function startNext() {
    for (const [member, starts] of waiting) {
      if (running >= slots) return;
      if ((held.get(member) ?? 0) >= perMember) continue;
      running += 1;
      held.set(member, (held.get(member) ?? 0) + 1);
      waiting.delete(member);
      const start = starts.shift() as () => void;
      if (starts.length) waiting.set(member, starts);
      start();
    }
  }

  function finish(member: string) {
    running -= 1;
    const left = (held.get(member) ?? 1) - 1;
    if (left) held.set(member, left);
    else held.delete(member);
    startNext();
  }

  return {
    /** Runs `work` once it is the member's turn. */
    async run<T>(member: string, work: () => Promise<T>): Promise<T> {
      await new Promise<void>((resolve) => {
        const starts = waiting.get(member);
        if (starts) starts.push(resolve);
        else waiting.set(member, [resolve]);
        startNext();
      });
      try {
        return await work();
      } finally {
        finish(member);
      }
    },
  };
}
