import { useStore } from '@nanostores/react';
import { $attempted, $editing, $problems, $touched } from '../validation.ts';

/**
 * The problems to show: a name's first problem once the voter has left it or tried to submit,
 * never before, and not while a voter edits an answer that had none.
 */
export function useShownProblems(): (name: string) => string | undefined {
  const problems = useStore($problems, { ssr: 'initial' });
  const touched = useStore($touched, { ssr: 'initial' });
  const attempted = useStore($attempted, { ssr: 'initial' });
  const editing = useStore($editing, { ssr: 'initial' });
  return (name) => ((attempted || touched[name]) && !editing[name] && problems[name]) || undefined;
}

/** True once a name's answer has been checked where the voter can see it: left, or the ballot submitted, and not being edited. */
export function useChecked(): (name: string) => boolean {
  const touched = useStore($touched, { ssr: 'initial' });
  const attempted = useStore($attempted, { ssr: 'initial' });
  const editing = useStore($editing, { ssr: 'initial' });
  return (name) => Boolean((attempted || touched[name]) && !editing[name]);
}

/** A problem under its input; the input names `id` in aria-describedby, so screen readers read it. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p className="field-error" id={id}>
      {message}
    </p>
  ) : null;
}
