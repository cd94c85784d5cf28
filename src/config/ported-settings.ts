import { compactionLimit, engineSettingsSchema } from '../engine/index.js';

/**
 * What one message of a ported configuration is taken to hold, in tokens: a question, or an answer
 * with its tool results. Message counts become token budgets by it.
 */
const portedMessageTokens = 1000;

/** Settings as the data-chat seed names them (camel-cased), each read as one native setting. */
const portedSettingNames = ['maxRecentMessages', 'summarizeAfter'] as const;

/** The settings with the ported names replaced by native ones, a one-line notice per name, and what was wrong with them. */
export interface PortedSettings {
  readonly settings: Record<string, unknown>;
  readonly notices: readonly string[];
  readonly problems: readonly { readonly key: string; readonly message: string }[];
}

const wholeCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;
const grouped = (value: number): string => value.toLocaleString('en-US');

/**
 * `summarizeAfter: N` (messages) becomes `compactionThreshold`: N messages of `portedMessageTokens`
 * as a share of `contextWindowTokens` (at most 0.9, the default). `maxRecentMessages: N` becomes
 * `compactionTargetTokens`: N messages, kept below where compaction starts (at 80% of it, the
 * derived default's share) so the pair always validates. A native setting given beside its ported
 * one wins, and the notice says the ported one was left unread.
 */
export function mapPortedSettings(input: Record<string, unknown>): PortedSettings {
  const present = portedSettingNames.filter((name) => name in input);
  if (present.length === 0) return { settings: input, notices: [], problems: [] };
  const settings: Record<string, unknown> = { ...input };
  for (const name of present) delete settings[name];
  const problems = present
    .filter((name) => !wholeCount(input[name]))
    .map((name) => ({ key: name, message: `Invalid value for '${name}': expected a whole number of messages above 0 (it is read as a token budget; see docs/configuration.md#ported-settings).` }));
  if (problems.length > 0) return { settings, notices: [], problems };

  const shape = engineSettingsSchema.shape;
  const window = shape.contextWindowTokens.safeParse(input.contextWindowTokens).data ?? shape.contextWindowTokens.parse(undefined);
  const maxOutputTokens = shape.maxOutputTokens.safeParse(input.maxOutputTokens).data ?? null;
  const notices: string[] = [];
  const windowText = `a ${grouped(window)}-token window`;

  const after = input.summarizeAfter;
  if (wholeCount(after)) {
    if ('compactionThreshold' in input) notices.push(`summarizeAfter is not read: compactionThreshold is set, and it wins.`);
    else {
      const threshold = Math.min(0.9, Math.max(0.001, Math.round((after * portedMessageTokens * 1000) / window) / 1000));
      settings.compactionThreshold = threshold;
      notices.push(`summarizeAfter: ${after} is read as compactionThreshold: ${threshold} (${after} messages of about ${grouped(portedMessageTokens)} tokens in ${windowText}); set compactionThreshold instead.`);
    }
  }

  const recent = input.maxRecentMessages;
  if (wholeCount(recent)) {
    if ('compactionTargetTokens' in input) notices.push(`maxRecentMessages is not read: compactionTargetTokens is set, and it wins.`);
    else {
      const threshold = shape.compactionThreshold.safeParse(settings.compactionThreshold).data ?? shape.compactionThreshold.parse(undefined);
      const ceiling = Math.floor(compactionLimit({ contextWindowTokens: window, compactionThreshold: threshold, maxOutputTokens, modelMaxOutputTokens: null }) * 0.8);
      const target = Math.max(1, Math.min(recent * portedMessageTokens, ceiling));
      settings.compactionTargetTokens = target;
      const capped = target < recent * portedMessageTokens ? `, capped below where compaction starts` : '';
      notices.push(`maxRecentMessages: ${recent} is read as compactionTargetTokens: ${target} (${recent} messages of about ${grouped(portedMessageTokens)} tokens${capped}); set compactionTargetTokens instead.`);
    }
  }
  return { settings, notices, problems };
}
