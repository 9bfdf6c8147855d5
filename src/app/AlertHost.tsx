import { useEffect, useState } from 'react';
import { AlertDialog } from '../components/AlertDialog';
import { useActors } from './ActorsContext';

interface Alert {
  title: string;
  message: string;
}

/** Shows the alerts the machines emit, one at a time, in order. */
export function AlertHost() {
  const { session } = useActors();
  const [alerts, setAlerts] = useState<Alert[]>([]);

  useEffect(() => {
    const subscription = session.on('alert', ({ title, message }) =>
      setAlerts((queue) => [...queue, { title, message }]),
    );
    return () => subscription.unsubscribe();
  }, [session]);

  const [current] = alerts;
  if (!current) return null;
  return (
    <AlertDialog
      title={current.title}
      message={current.message}
      onClose={() => setAlerts((queue) => queue.slice(1))}
    />
  );
}
