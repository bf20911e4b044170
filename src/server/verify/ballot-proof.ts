import type { BallotTarget } from '../intake/ballot-request.ts';
import { refused, type Refused } from '../intake/intake-outcome.ts';
import { PROOF_FIELD, proofCookie, readProof } from './verify-token.ts';

/**
 * The voter a public ballot counts for on a survey that verifies voters: the proven address
 * (`verify: email`), or the invited person as if from their personal link (`verify: roster`).
 * A ballot without a good proof is refused with 403 `verification_required`. The proof comes as
 * the form field the scripts send, or as the cookie a browser without JavaScript was given; the
 * field is taken out of the ballot either way. Personal links and other surveys pass unchanged.
 */
export function provenTarget(target: BallotTarget, form: FormData, request: Request, now: Date): BallotTarget | Refused {
  const field = form.get(PROOF_FIELD);
  form.delete(PROOF_FIELD);
  if (target.survey.config.verify === 'none' || target.link !== 'public') return target;
  const proof = readProof(typeof field === 'string' && field ? field : proofCookie(request), target.survey.config.project_id, now);
  if (!proof)
    return refused('verification_required', 'This survey takes ballots from verified voters: ask for a code, type it, then send the ballot.', [
      { path: PROOF_FIELD, message: 'is required: prove your address with a code first.' },
    ]);
  if (proof.secret) return { survey: target.survey, link: 'personal', secret: proof.secret, verifiedEmail: proof.email };
  return { ...target, verifiedEmail: proof.email };
}
