import { applyDefaults, parseContent, receiveRequestedSchema } from '@parley/core/form';
import { checkLimit } from './check-limit.js';
import type { Connection } from './connection.js';
import { describeCall, ParleyError } from './errors.js';
import { callHost } from './host-call.js';
import { askContext, describeQuestion, type QuestionOutcome, type QuestionSlot } from './question.js';
import type { ElicitResult, FormRequest } from './types.js';

/**
 * Asks a form question: refuses schemas outside the subset (read liberally) without showing them, waits for the
 * person's turn, and checks what the host answers — declared defaults filled in for fields left
 * empty (where the UI showed them pre-filled, only for required fields: an optional field the person
 * cleared stays empty), then `parseContent` — so invalid content never reaches the server.
 */
export async function askForm(
  connection: Connection,
  slot: QuestionSlot,
  message: string,
  schema: unknown,
): Promise<QuestionOutcome> {
  if (!connection.ui.modes.form) {
    return { kind: 'unshowable', reason: 'this host does not show forms (it declared no form mode)' };
  }
  checkLimit(connection, slot.call, 'messageLength', message.length, 'a question message too long');
  const properties = (schema as { properties?: unknown } | null)?.properties;
  const fields = typeof properties === 'object' && properties !== null ? Object.keys(properties).length : 0;
  checkLimit(connection, slot.call, 'fieldsPerForm', fields, 'a form with too many fields');
  // Liberal in what it accepts: a root title, FastMCP's untyped multi-select items and the like are
  // normalised into the subset; anything whose meaning is not clear is refused unseen.
  const received = receiveRequestedSchema(schema);
  if (!received.ok) {
    const list = received.problems.map((problem) => `${problem.path || '/'}: ${problem.message}`).join('; ');
    return { kind: 'unshowable', reason: `the form is outside the MCP requestedSchema subset: ${list}` };
  }
  const request: FormRequest = {
    message,
    requestedSchema: received.schema,
    ...(received.title !== undefined && { title: received.title }),
    ...(received.description !== undefined && { description: received.description }),
  };
  const result = await connection.queue.ask(slot.group, slot.call.signal, async (position) => {
    if (slot.together?.cancelled) return { value: { action: 'cancel' } as ElicitResult };
    const outcome = await callHost(
      slot.call.signal,
      connection.settings.questionTimeoutMs,
      (signal) => connection.ui.form(request, askContext(connection, slot, position, signal)),
      { server: connection.server.name, call: slot.call.info },
    );
    const answer: ElicitResult = outcome.kind === 'timeout' ? { action: 'cancel' } : outcome.value;
    const checked = checkedAnswer(connection, slot, request, answer);
    if (checked.action === 'cancel' && slot.together) slot.together.cancelled = true;
    return { value: checked };
  });
  return { kind: 'answer', result };
}

function checkedAnswer(
  connection: Connection,
  slot: QuestionSlot,
  request: FormRequest,
  answer: unknown,
): ElicitResult {
  const question = describeQuestion(slot.key, request.message);
  const where = `from ${connection.server.name} during ${describeCall(slot.call.info)}`;
  const action =
    typeof answer === 'object' && answer !== null ? (answer as { action?: unknown }).action : undefined;
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept') {
    throw new ParleyError(
      'invalid-answer',
      `The host answered the question ${question} ${where} with ${JSON.stringify(answer)}; answer { action: 'accept', content }, { action: 'decline' } or { action: 'cancel' }`,
      { server: connection.server.name, call: slot.call.info },
    );
  }
  const content = applyDefaults(
    request.requestedSchema,
    (answer as { content?: Record<string, unknown> }).content,
    connection.ui.defaults,
  );
  const parsed = parseContent(request.requestedSchema, content);
  if (!parsed.ok) {
    const reasons = parsed.errors.map((error) =>
      error.field ? `${error.field}: ${error.message}` : error.message,
    );
    throw new ParleyError(
      'invalid-answer',
      `The answer to ${question} ${where} does not fit the form (${reasons.join('; ')}); check it with parseContent before answering`,
      { server: connection.server.name, call: slot.call.info },
    );
  }
  return { action: 'accept', content: parsed.value };
}
