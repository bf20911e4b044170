import { useStore } from '@nanostores/react';
import { $draft, loadDrafts } from '../stores/draft-state.ts';

const day = new Intl.DateTimeFormat('en', { dateStyle: 'long' });

/** The line that says the answers are kept on this device, with a way to clear them, and whether a ballot left from here. */
export function DraftLine() {
  // The page's script may learn that this device keeps drafts before the island hydrates: the first render matches the HTML.
  const draft = useStore($draft, { ssr: 'initial' });
  if (!draft.keeping) return null;
  return (
    <div className="draft-line">
      {draft.sentAt !== undefined && <p className="draft-sent">A ballot was already sent from this device on {day.format(draft.sentAt)}.</p>}
      <p>
        Your answers are saved on this device until you submit. Files are not kept.{' '}
        <button type="button" className="button button-secondary button-small" onClick={() => void loadDrafts().then((drafts) => drafts.clearMyAnswers())}>
          Clear my answers
        </button>
      </p>
    </div>
  );
}
