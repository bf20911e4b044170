import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $link } from '../stores/link.ts';
import { prefillAnswers } from '../stores/answers.ts';
import type { PublicSurvey } from '../survey/public.ts';
import { FieldView } from './fields/FieldView.tsx';

interface Props {
  survey: PublicSurvey;
}

/** The ballot: the survey's layout, row by row, prefilled from a personal link. */
export default function BallotForm({ survey }: Props) {
  const { prefill } = useStore($link);
  useEffect(() => prefillAnswers(prefill), [prefill]);
  return (
    <form className="ballot card" noValidate aria-label="Ballot" onSubmit={(event) => event.preventDefault()}>
      {survey.layout.map((row, r) => (
        <div className="row" key={r}>
          {row.map((field) => (
            <FieldView key={field.name} field={field} survey={survey} prefill={prefill} />
          ))}
        </div>
      ))}
    </form>
  );
}
