import { useT } from '../i18n/useT';

/** A server error about the form as a whole (no field of it named), announced when it appears. */
export function FormError({ message }: { message: string | null }) {
  const t = useT();
  if (!message) return null;
  return (
    <p className="field-error" role="alert">
      {t(message)}
    </p>
  );
}
