/** A mistake in what the operator asked (an unknown slug, nominee or tile): the command says so in one line and changes nothing. */
export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorError';
  }
}
