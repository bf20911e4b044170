import { useStore } from '@nanostores/react';
import { $attempted, $problems, $touched } from '../../stores/validation.ts';

/**
 * The problems to show: a name's first problem once the voter has left it or tried to submit,
 * never before.
 */
export function useShownProblems(): (name: string) => string | undefined {
  const problems = useStore($problems);
  const touched = useStore($touched);
  const attempted = useStore($attempted);
  return (name) => ((attempted || touched[name]) && problems[name]) || undefined;
}

/** A problem under its input; the input names `id` in aria-describedby, so screen readers read it. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p className="field-error" id={id}>
      {message}
    </p>
  ) : null;
}
