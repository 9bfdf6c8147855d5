import { useEffect, useState } from 'react';

/** The time now, renewed every `intervalMs`: relative times ("5 minutes ago") stay true on screen. */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
