import type { Command } from 'commander';
import { createProvider } from '../providers/index.js';
import type { Provider } from '../providers/index.js';
import { CliUsageError } from './program.js';

/** The flags that choose a model, shared by `ask` and `serve`; they override the configuration. */
export interface ProviderOptions {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
}

export function addProviderOptions(command: Command): Command {
  return command
    .option('--provider <spec>', 'the model: openai, anthropic, ollama, gemini, scripted:FILE, or a module path (./my-provider.js#Export)')
    .option('--model <model>', "the provider's model name (default: the provider's own default)")
    .option('--base-url <url>', 'the provider\'s base URL (an OpenAI-compatible server, a local Ollama, …)');
}

/** The provider the flags name, or undefined when none is named. */
export async function providerFrom(options: ProviderOptions): Promise<Provider | undefined> {
  if (options.provider === undefined) {
    if (options.model !== undefined || options.baseUrl !== undefined) throw new CliUsageError('--model and --base-url need --provider');
    return undefined;
  }
  return createProvider({
    provider: options.provider,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
  });
}
