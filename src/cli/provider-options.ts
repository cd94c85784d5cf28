import type { Command } from 'commander';
import type { RawSettings } from '../config/index.js';
import { CliUsageError } from './cli-errors.js';

/** The flags that choose a model, shared by `ask` and `serve`; they override the configuration. */
export interface ProviderOptions {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
}

export function addProviderOptions(command: Command): Command {
  return command
    .option('--provider <spec>', 'the model: openai, anthropic, ollama, gemini, scripted:FILE, or a module path (./my-provider.js#Export); overrides the configuration')
    .option('--model <model>', "the provider's model name (overrides providerConfig.model)")
    .option('--base-url <url>', "the provider's base URL: an OpenAI-compatible server, a local Ollama… (overrides providerConfig.baseUrl)");
}

/** The settings the flags give, layered over the configuration's (`providerConfig` merges key by key). */
export function providerOverrides(options: ProviderOptions): RawSettings {
  const providerConfig: RawSettings = {};
  if (options.model !== undefined) providerConfig.model = options.model;
  if (options.baseUrl !== undefined) providerConfig.baseUrl = options.baseUrl;
  return {
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(Object.keys(providerConfig).length === 0 ? {} : { providerConfig }),
  };
}

/** `--model` and `--base-url` tune a provider: one must be configured or given. */
export function checkProviderFlags(options: ProviderOptions, configured: string | null): void {
  if (configured === null && (options.model !== undefined || options.baseUrl !== undefined)) throw new CliUsageError('--model and --base-url need --provider (or a provider in the configuration)');
}
