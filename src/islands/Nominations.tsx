import type { FieldDef } from '../survey/field.struct.ts';
import { NominationsSection, type NominationSurvey } from './nominations/NominationsSection.tsx';

interface Props {
  field: FieldDef;
  survey: NominationSurvey;
}

/** The nominations island: per category group its nomination inputs, backed by the nominee search. */
export default function Nominations({ field, survey }: Props) {
  return <NominationsSection field={field} survey={survey} />;
}
