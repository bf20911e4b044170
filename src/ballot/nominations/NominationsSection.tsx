import { useEffect } from 'react';
import { pageSurvey, segmentField } from '../page-survey.ts';
import { adsFor, categoryLabel, slotGroups } from '../../survey/config/layout.ts';
import { searchSettings } from '../../survey/nominees/nominee-search.ts';
import { configureSearch } from '../../search/suggestions.ts';
import { NominationInput } from './NominationInput.tsx';
import { slotPlaceholder } from './nominations.ts';
import { m } from '../../i18n/messages.ts';

/** Ad image sizes by URL, read at build time, so an ad keeps its place while it loads. */
type AdSizes = Record<string, { width: number; height: number }>;

interface Props {
  /** The ballot page's survey (src/ballot/page-survey.ts): its categories, their labels and its search. */
  page: string;
  /** The index of the layout's segment that is the nominations field. */
  segment: number;
  adSizes?: AdSizes;
}

/** The nominations section: per category group a heading and its ads, per sub-category its nomination inputs. */
export function NominationsSection({ page, segment, adSizes = {} }: Props) {
  const survey = pageSurvey(page);
  const field = segmentField(page, segment);
  useEffect(() => configureSearch(searchSettings(survey)), [survey]);
  const headingId = `field-${field.name}-title`;
  return (
    <section className={`field field-nomination nominations ${field.class ?? ''}`} aria-labelledby={headingId}>
      <h2 id={headingId}>{field.label ?? 'Nominations'}</h2>
      {slotGroups(survey).map((group) => (
        <section key={group.name} className="nomination-group" aria-labelledby={`${headingId}-${slug(group.name)}`}>
          <h3 id={`${headingId}-${slug(group.name)}`}>{categoryLabel(survey, group.name)}</h3>
          {adsFor(survey, group.name).map((src) => (
            <figure key={src} className="ad">
              <figcaption aria-hidden="true">{m.advertisement()}</figcaption>
              <img src={src} alt={m.advertisement()} loading="lazy" width={adSizes[src]?.width} height={adSizes[src]?.height} />
            </figure>
          ))}
          {group.subcategories.map((subcategory) => (
            <fieldset key={subcategory.name} className="subcategory">
              <legend>{categoryLabel(survey, subcategory.name)}</legend>
              <div className="slots">
                {subcategory.slots.map(({ slot, name }) => (
                  <NominationInput
                    key={name}
                    slot={name}
                    label={`${categoryLabel(survey, subcategory.name)}, ${slotPlaceholder(slot)}`}
                    placeholder={slotPlaceholder(slot)}
                    subcategoryLabel={categoryLabel(survey, subcategory.name)}
                  />
                ))}
              </div>
            </fieldset>
          ))}
        </section>
      ))}
    </section>
  );
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
