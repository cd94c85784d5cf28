import type { JsonObject, JsonValue } from '../../core/index.js';
import type { TurnPlan } from '../../router/index.js';
import { isPlanItem, itemText, newItems, planItemOf, rfc3339In } from '../shared/index.js';
import { latestSnapshot } from '../context/index.js';
import type { PageContext } from '../context/index.js';
import type { PlanNext } from '../shared/index.js';
import { runPlan, runStep } from './plan-run.js';
import { planEventOf } from '../shared/index.js';
import { answerWith } from './answer-step.js';
import { openSession, saveSessionForNextTurn } from './router-session.js';
import type { RoutingParts } from './router-types.js';
import { readerLabels } from './router-types.js';
import { refusalAnswer } from '../../answers/index.js';
import { openRouterQuestion, questionEvent, routerQuestion } from '../thread/index.js';
import type { QuestionData } from '../shared/index.js';
import { refusedWrite } from './write-gate.js';
import { guarded } from './turn-loop.js';
import { deferToModel } from './planned-turn.js';
import type { TurnRun } from './turn-run.js';

/**
 * Drives a run. Without routing it is the model loop. With it, a turn is read first: a new turn is
 * read by the thread's router session (plan event and item), a resumed one (a confirmation, a
 * retry, an expiry) continues from the plan its journal holds. `run` steps go through the
 * dispatcher; `ask`, `declined` and rephrase / refusal are answered here; a deferred unread turn
 * goes to the model loop with every proposed call checked by the session.
 */
export async function driveTurn(run: TurnRun): Promise<void> {
  const routing = run.parts.routing;
  if (routing === undefined) return guarded(run, () => deferToModel(run));
  return guarded(run, async () => {
    try {
      await routerTurn(run, routing);
    } finally {
      await saveSessionForNextTurn(run, routing);
    }
  });
}

async function routerTurn(run: TurnRun, routing: RoutingParts): Promise<void> {
  const turnItems = run.turnItems();
  const planned = turnItems.findLast(isPlanItem);
  let plan: TurnPlan;
  let next: PlanNext;
  if (planned === undefined) {
    if (routing.reader.stale?.() === true) await refreshReader(run, routing);
    run.session = await openSession(run, routing, true);
    const text = itemText(turnItems.find((item) => item.kind === 'user_text') ?? turnItems[0]!);
    const reading = performance.now();
    // A router question left open by the thread's last turn: this message is its reply, bound to it explicitly.
    const replying = run.session.session.summary().asking ? await openQuestion(run) : undefined;
    plan = run.session.session.read(text, {
      context: await readContext(run, routing),
      ...(run.language === undefined ? {} : { language: run.language }),
      ...(replying?.planIndex === undefined ? {} : { reply: replying.planIndex }),
    });
    run.latency.router += performance.now() - reading;
    next = nextFor(run, routing, plan);
    // A plan that only reads is read again the same way if its item is lost: staged, not waited for.
    const planItem = [
      ...(replying === undefined ? [] : [newItems.answer({ questionId: replying.questionId, text, via: run.answering === replying.questionId ? 'answer' : 'message' })]),
      newItems.plan({ plan: plan as unknown as JsonValue, next }),
    ];
    // A run's first step, or the turn's end, writes the session; a model turn may take long: its plan's commit carries it.
    await (readsOnly(run, plan, next) ? run.stage(planItem, { status: 'running' }) : run.append(planItem, next === 'model' ? run.withSession({ status: 'running' }) : { status: 'running' }));
    const waiting = run.emit(shownPlan(run, plan, next));
    if (waiting !== undefined) await waiting;
    if (plan.outcome === 'ask' && plan.chain.length > 0 && refusedWrite(run, plan) === null) {
      // The question is an identity other reads can give: make them, then go on with the plan they complete.
      const looked = await lookUp(run, plan);
      if (run.stopping) return run.cancelled();
      if (looked !== null && looked !== plan) {
        plan = looked;
        next = nextFor(run, routing, plan);
        await run.append([newItems.plan({ plan: plan as unknown as JsonValue, next })], run.withSession({ status: 'running' }));
        const shown = run.emit(shownPlan(run, plan, next));
        if (shown !== undefined) await shown;
      }
    }
  } else {
    run.session = await openSession(run, routing, false);
    const data = planItemOf(planned);
    plan = data.plan as unknown as TurnPlan;
    next = data.next;
  }
  if (run.stopping) return run.cancelled();
  // A write the actor may not make is refused before anything about it is asked (an amount, a confirmation) or run.
  const refused = next === 'run' || plan.outcome === 'ask' ? refusedWrite(run, plan) : null;
  if (refused !== null) {
    run.session?.session.dismiss(plan);
    return answerWith(run, refusalAnswer(plan.language, refused.label, refused.code, refused.message));
  }
  switch (next) {
    case 'model':
      return deferToModel(run);
    case 'run':
      return runPlan(run, routing, plan);
    case 'refuse':
      return answerWith(run, routing.answer({ plan: refusal(run, plan), steps: [], language: plan.language, ...readerLabels(routing.reader) }));
    default: {
      const written = routing.answer({ plan, steps: [], language: plan.language, ...readerLabels(routing.reader) });
      if (next === 'ask') await askRouterQuestion(run, plan, typeof written === 'string' ? written : written.text);
      return answerWith(run, written);
    }
  }
}

/** The plan as its event shows it, with the write it holds that the actor may not make, if any. */
function shownPlan(run: TurnRun, plan: TurnPlan, next: PlanNext): ReturnType<typeof planEventOf> {
  const refused = next === 'run' || plan.outcome === 'ask' ? refusedWrite(run, plan) : null;
  return planEventOf(plan, next, refused === null ? undefined : { tool: refused.tool, code: refused.code });
}

/** The router question the thread's last turn left open, read from the journal (its recent tail). */
async function openQuestion(run: TurnRun): Promise<QuestionData | undefined> {
  await run.loadThread();
  return openRouterQuestion(run.items, run.turnId);
}

/** The router's `ask` is a question of the thread's: journaled (with the answer's commit) and shown, so that its reply binds to it. */
async function askRouterQuestion(run: TurnRun, plan: TurnPlan, text: string): Promise<void> {
  if (text === '' || run.turnItems().some((item) => item.kind === 'question')) return;
  const question = routerQuestion(run, plan, text);
  await run.stage([newItems.question(question)]);
  const waiting = run.emit(questionEvent(question));
  if (waiting !== undefined) await waiting;
}

/**
 * `session.lookUp` over the dispatcher: each call the plan's chain names is a read, checked by the
 * session and run as the actor with its `tool_call` / `tool_result` events and items.
 */
async function lookUp(run: TurnRun, plan: TurnPlan): Promise<TurnPlan | null> {
  const session = run.session!.session;
  let count = 0;
  return session.lookUp(plan, async (tool, args) => {
    const callId = `${run.turnId}-lookup-${count++}`;
    const effect = run.parts.dispatcher.tool(tool)?.effect ?? 'unknown';
    if (effect !== 'read') return { error: { code: 'tool_refused', message: `'${tool}' is not a read; a lookup only reads.` } };
    const check = session.checkToolCall({ tool, arguments: args });
    const ran = await runStep(run, { callId, tool, args, effect, check, message: undefined });
    return ran.next === 'ran' ? ran.result : { error: { code: 'tool_refused', message: 'The lookup did not run.' } };
  });
}

/** Whether the plan runs read tools only (and no question, refusal or model follows): nothing in it needs its commit awaited. */
function readsOnly(run: TurnRun, plan: TurnPlan, next: PlanNext): boolean {
  return next === 'run' && plan.steps.every((step) => step.kind === 'compute' || (step.kind === 'tool' && step.selection.tool !== null && run.parts.dispatcher.tool(step.selection.tool)?.effect === 'read'));
}

/** What the engine does with a plan: its outcome, and for an unread one: rephrase, the model, or a refusal. */
function nextFor(run: TurnRun, routing: RoutingParts, plan: TurnPlan): PlanNext {
  if (plan.outcome !== 'unread') return plan.outcome;
  const hasModel = run.parts.provider !== undefined || run.parts.planned !== undefined;
  const askToRephrase = routing.askToRephrase ?? !hasModel;
  if (askToRephrase && plan.guidance?.next === 'Rephrase') return 'rephrase';
  return routing.onUnread === 'model' && hasModel ? 'model' : 'refuse';
}

/** The plan as the renderer should answer a refused unread turn: deferred, with the refusal as its guidance. */
function refusal(run: TurnRun, plan: TurnPlan): TurnPlan {
  const guidance = plan.guidance;
  if (guidance?.next === 'Defer' && guidance.render !== null) return plan;
  const words = run.session?.router.vocabulary.words[plan.language];
  const refused = words?.messages['unread_refused'] ?? 'This is not something I can read.';
  // Where the plan asked to rephrase, keep its example: the refusal then says what can be asked.
  const render = guidance?.next === 'Rephrase' && guidance.render !== null ? `${refused} ${guidance.render}` : refused;
  return { ...plan, guidance: { next: 'Defer', render, evidence: guidance?.evidence ?? [] } };
}

async function refreshReader(run: TurnRun, routing: RoutingParts): Promise<void> {
  try {
    await routing.reader.refresh?.(run.signal);
  } catch (error) {
    // Reading with the values known so far beats failing the turn; the failure is reported.
    run.parts.hooks.emit('error', { error, code: 'chat_error', threadId: run.thread.id, turnId: run.turnId, source: 'reader' });
  }
}

/** The snapshot in effect for the turn: its own message's, else the thread's (read from its tail, then whole). */
async function pageSnapshot(run: TurnRun): Promise<PageContext | undefined> {
  let snapshot = latestSnapshot(run.items);
  if (snapshot !== undefined) return snapshot;
  await run.loadThread();
  snapshot = latestSnapshot(run.items);
  if (snapshot !== undefined) return snapshot;
  await run.loadWholeThread();
  return latestSnapshot(run.items);
}

/**
 * The router's context for this turn: `now` in the request's or the host's time zone, the page
 * context's items under the keys the rulebook declares as context parameters (an item's `value`,
 * by its `kind`), and the actor's own keys, which a page never overrides.
 */
async function readContext(run: TurnRun, routing: RoutingParts): Promise<JsonObject> {
  const declared = new Set(Object.values(routing.reader.router().rulebook.contextParameters));
  const page: Record<string, JsonValue> = {};
  const snapshot = declared.size === 0 ? undefined : await pageSnapshot(run);
  for (const item of snapshot?.items ?? []) if (item.value !== undefined && declared.has(item.kind)) page[item.kind] = item.value;
  return { ...page, now: rfc3339In(run.parts.clock(), run.timeZone ?? run.parts.settings.timeZone), ...(routing.reader.actorContext?.(run.actor) ?? {}) };
}

