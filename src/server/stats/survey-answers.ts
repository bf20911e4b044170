import type { ParticipationFigures, WorkplaceFigures } from '../../survey/api/api-replies.ts';
import { database } from '../db/database.ts';
import { ballotsPerAnswer, ballotsWithout, participation } from './stats.repository.ts';
import { foldWorkplaces } from './workplaces.ts';
import type { ServerSurvey } from '../surveys.ts';

/** The stats page's numbers: ballots in total and per day, nominations per sub-category, write-ins. */
export async function participationStats(survey: ServerSurvey): Promise<ParticipationFigures> {
  const { db } = await database();
  const stats = await participation(db, survey.config.project_id);
  return {
    project_id: survey.config.project_id,
    ballots: stats.ballots,
    ballots_per_day: stats.perDay,
    nominations_per_category: stats.nominations,
    write_ins: stats.writeIns,
  };
}

/** The workplace stats page's numbers: ballots per workplace, small workplaces folded into "Other". */
export async function workplaceStats(survey: ServerSurvey): Promise<WorkplaceFigures> {
  const { db } = await database();
  const field = survey.config.workplace_field;
  const counts = await ballotsPerAnswer(db, survey.config.project_id, field);
  const unanswered = await ballotsWithout(db, survey.config.project_id, field);
  const workplaces = foldWorkplaces(counts, unanswered);
  return { project_id: survey.config.project_id, field, ballots: workplaces.reduce((n, w) => n + w.ballots, 0), workplaces };
}
