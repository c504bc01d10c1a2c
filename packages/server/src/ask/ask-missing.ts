import type { AskMissingOptions, ElicitOutcome } from '../ask-types.js';
import { ElicitationUnavailable, ToolError } from '../errors.js';
import {
  type ArgumentsSource,
  invalidArguments,
  type MissingPlan,
  type MissingSettings,
  missingSettings,
  planMissing,
} from '../registry/missing-args.js';
import { checkArgs, describeIssues } from '../registry/schema.js';
import type { ParleyContext } from '../types.js';

/** Times the person may fill the form with arguments the tool's schema still refuses. */
const MAX_TRIES = 3;

/**
 * Asks the person the form of `plan` and returns the arguments it completes, checked against the
 * tool's input schema (asked again, with the reason, when the schema still refuses them). A client
 * that cannot be asked at all gets the usual invalid-arguments error.
 */
export async function askForMissing(
  ctx: ParleyContext,
  source: ArgumentsSource,
  plan: Extract<MissingPlan, { kind: 'ask' }>,
  settings: MissingSettings,
): Promise<ElicitOutcome<unknown>> {
  let reason: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const key = attempt === 1 ? settings.key : `${settings.key}_${attempt}`;
    const message =
      reason === undefined ? plan.message : `That answer could not be used: ${reason}\n\n${plan.message}`;
    let answer: ElicitOutcome<Record<string, unknown>>;
    try {
      answer = (await ctx.elicit(message, plan.schema, { key })) as ElicitOutcome<Record<string, unknown>>;
    } catch (error) {
      if (error instanceof ElicitationUnavailable) throw new ToolError(plan.unanswerable);
      throw error;
    }
    if (answer.action !== 'accept') return answer;
    const checked = await checkArgs(source.input, { ...plan.kept, ...answer.value });
    if (checked.ok) return { action: 'accept', value: checked.value };
    // Asked again only when the person can fix it: every problem is in a field of the form.
    const inForm = (field: string | undefined) =>
      field !== undefined && Object.hasOwn(plan.schema.properties, field);
    if (attempt >= MAX_TRIES || !checked.issues.every((issue) => inForm(issue.path[0])))
      throw new ToolError(invalidArguments(source.tool, checked.message));
    reason = describeIssues(checked.issues);
  }
}

/**
 * `ctx.elicitMissing(args, options)`: the arguments, complete, asking the person for what is missing.
 * `source`: the arguments of the tool whose handler `ctx` runs (none outside a tool with an input schema).
 */
export async function elicitMissing(
  ctx: ParleyContext,
  args: unknown,
  options: AskMissingOptions<Record<string, unknown>, string> | undefined,
  source: ArgumentsSource | undefined,
): Promise<ElicitOutcome<unknown>> {
  if (source === undefined)
    throw new TypeError(
      'ctx.elicitMissing() asks for arguments of a tool with an input schema: call it in the handler of server.tool(name, { input }, ...).',
    );
  const settings = missingSettings(source, options);
  const plan = planMissing(source, args, await checkArgs(source.input, args ?? {}), settings);
  if (plan.kind === 'complete') return { action: 'accept', value: plan.value };
  if (plan.kind === 'refuse') throw new ToolError(plan.message);
  return askForMissing(ctx, source, plan, settings);
}

/** What a tool answers when the person would not give the arguments it was missing. */
export function notGiven(tool: string, action: 'decline' | 'cancel', asked: readonly string[]): string {
  const did = action === 'decline' ? 'declined' : 'cancelled';
  return `Tool ${tool} did nothing: the person ${did} the form for its missing arguments (${asked.join(', ')}).`;
}
