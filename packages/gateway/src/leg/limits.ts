/** Questions one upstream round may carry; past it the call ends (an upstream that floods questions). */
export const MAX_QUESTIONS_PER_ROUND = 20;
/** The largest `input_required` result the gateway takes from an upstream (its questions and state), in bytes. */
export const MAX_ROUND_BYTES = 256 * 1024;
/** The largest result the gateway passes on, in bytes. */
export const MAX_RESULT_BYTES = 16 * 1024 * 1024;
