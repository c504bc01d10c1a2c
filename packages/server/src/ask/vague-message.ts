import { AuthorError } from '../errors.js';

/**
 * A question was about to be sent with a message that says nothing about what is asked ("Input
 * needed", "Please provide input"): the person reads the message to know what is asked and why.
 */
export class VagueMessageError extends AuthorError {
  constructor(kind: string, message: string) {
    super(
      `A ${kind} question's message must say what is asked and why; "${message.slice(0, 80)}" says neither. ` +
        "Name it, e.g. ctx.elicit('How many boxes should the courier collect?', ask.integer()). If the " +
        'fields say it all and the message is meant to be short, pass { allowVagueMessage: true }.',
    );
    this.name = 'VagueMessageError';
  }
}

/**
 * Words that say only that something is asked, not what: a message made of nothing else
 * ("Input needed", "Please provide the required information", "Enter a value") tells the person
 * nothing. Any other word (a field's name, a thing, a question word) makes a message say something.
 */
const FILLER = new Set(
  (
    'a an the some any more additional further extra other ' +
    'please kindly pls ' +
    'provide enter give fill complete submit type supply add ' +
    'input inputs information info details detail data value values entry entries ' +
    'answer answers response responses respond reply field fields form forms ' +
    'question questions parameter parameters argument arguments ' +
    'required requires require needed need needs missing requested request necessary ' +
    'following below above this these that in out your you we i me us to is are be of for ' +
    'user here now'
  ).split(' '),
);

/** Whether `message` says nothing but that something is asked (every word of it is filler). */
export function isVagueMessage(message: string): boolean {
  const words = message.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (words === null) return false;
  return words.every((word) => FILLER.has(word));
}

/** Refuses a message that says nothing about what is asked, unless its author said so on purpose. */
export function refuseVagueMessage(kind: string, message: string, allowed: unknown): void {
  if (allowed !== true && isVagueMessage(message)) throw new VagueMessageError(kind, message);
}
