
/** The token settings a budget is computed from (the engine settings' own names; no import back to them). */
interface Budgeted {
  readonly contextWindowTokens: number;
  readonly compactionThreshold: number;
  readonly maxOutputTokens: number | null;
  readonly modelMaxOutputTokens: number | null;
}

/**
 * Room kept between a request's input and output and the window's edge, for what estimates miss:
 * 1% of the window, at most 4,096 tokens. It lies inside the compaction threshold's buffer, not
 * beside it.
 */
export function safetyMargin(settings: Pick<Budgeted, 'contextWindowTokens'>): number {
  return Math.min(Math.floor(settings.contextWindowTokens / 100), 4096);
}

/**
 * The estimated request size (input tokens) past which the older history is compacted: the
 * threshold share of the window, or less when an explicit output ceiling leaves less room (that
 * ceiling is never reduced, so it may compact earlier).
 */
export function compactionLimit(settings: Budgeted): number {
  const window = settings.contextWindowTokens;
  return Math.min(Math.floor(window * settings.compactionThreshold), window - (settings.maxOutputTokens ?? 0) - safetyMargin(settings));
}

/**
 * A summary request's output budget: its ceiling, within the model's known capability and the
 * explicit per-request ceiling; neither known, none (a ceiling above what the model allows would be
 * refused), and the ceiling is checked on the summary instead.
 */
export function summaryBudget(settings: Budgeted & { readonly summaryCeiling: number }): number | undefined {
  const limits = [settings.modelMaxOutputTokens, settings.maxOutputTokens].filter((limit): limit is number => limit !== null);
  return limits.length === 0 ? undefined : Math.min(settings.summaryCeiling, ...limits);
}

/**
 * The output budget of one request: the explicit `maxOutputTokens` as it is; else, when the
 * model's capability is known, what the window leaves after the projected input and the margin, up
 * to that capability (at least one token); else none (the provider's own default).
 */
export function outputBudget(settings: Budgeted, projectedInput: number): number | undefined {
  if (settings.maxOutputTokens !== null) return settings.maxOutputTokens;
  const capability = settings.modelMaxOutputTokens;
  if (capability === null) return undefined;
  const left = settings.contextWindowTokens - projectedInput - safetyMargin(settings);
  return Math.max(1, Math.min(capability, left));
}
