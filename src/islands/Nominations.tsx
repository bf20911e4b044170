import type { FieldDef } from '../survey/field.struct.ts';
import { NominationsSection, type AdSizes, type NominationSurvey } from './nominations/NominationsSection.tsx';

interface Props {
  field: FieldDef;
  survey: NominationSurvey;
  /** The intrinsic sizes of the ad images the build could read, by URL. */
  adSizes?: AdSizes;
}

/** The nominations island: per category group its nomination inputs, backed by the nominee search. */
export default function Nominations({ field, survey, adSizes }: Props) {
  return <NominationsSection field={field} survey={survey} adSizes={adSizes} />;
}
