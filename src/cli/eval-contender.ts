import type { LoadedConfig } from '../config/index.js';
import type { Provider, ProviderConfig } from '../providers/index.js';
import { createProvider } from '../providers/index.js';
import { CliUsageError } from './cli-errors.js';

/** The built-in providers a `name:model` spec may name. */
const named = new Set(['openai', 'anthropic', 'ollama', 'gemini', 'google']);

/** What one contender spec asks for: no model, each case's own script, or a provider (and model). */
export type ContenderSpec =
  | { readonly kind: 'router' }
  | { readonly kind: 'scripted' }
  | { readonly kind: 'profile'; readonly name: string }
  | { readonly kind: 'provider'; readonly provider: string | undefined; readonly model: string | undefined };

/**
 * Reads one spec of `--compare a,b` or `--judge`: `router` (no model), `scripted` (each case's
 * script), the name of one of the configuration's `providerProfiles`, a provider (`openai`,
 * `scripted:FILE`, `./my-provider.js#Export`), a provider and its model (`openai:gpt-4o-mini`,
 * `ollama:llama3.1:8b`), or a model of the run's provider.
 */
export function parseContender(spec: string, profiles: ReadonlySet<string> = new Set()): ContenderSpec {
  const text = spec.trim();
  if (text === '') throw new CliUsageError('an empty provider spec: give router, scripted, a profile, a provider, provider:model, or a model name');
  if (text === 'router' || text === 'none') return { kind: 'router' };
  if (text === 'scripted') return { kind: 'scripted' };
  if (profiles.has(text)) return { kind: 'profile', name: text };
  const colon = text.indexOf(':');
  const head = colon === -1 ? text : text.slice(0, colon);
  if (named.has(head)) return { kind: 'provider', provider: head, model: colon === -1 || colon === text.length - 1 ? undefined : text.slice(colon + 1) };
  if (head === 'scripted' || /^(\.{1,2}\/|\/|file:|@)/.test(text) || text.includes('#')) return { kind: 'provider', provider: text, model: undefined };
  return { kind: 'provider', provider: undefined, model: text };
}

/** The model a spec names, built over the configuration's provider settings; undefined for `router` and `scripted`. */
export async function contenderProvider(spec: ContenderSpec, loaded: LoadedConfig): Promise<Provider | undefined> {
  const { config } = loaded;
  if (spec.kind === 'profile') {
    const profile = config.providerProfiles[spec.name]!;
    return createProvider({ ...(profile.providerConfig as Omit<ProviderConfig, 'provider'>), provider: profile.provider, cwd: loaded.root });
  }
  if (spec.kind !== 'provider') return undefined;
  const provider = spec.provider ?? config.provider;
  if (provider === null) throw new CliUsageError(`the model '${spec.model ?? ''}' needs a provider: give --provider, or name it as provider:model (openai:${spec.model ?? 'gpt-4o-mini'})`);
  // A different provider does not inherit the configured one's settings (its key, its base URL).
  const base = spec.provider === undefined || spec.provider === config.provider ? (config.providerConfig as Omit<ProviderConfig, 'provider'>) : {};
  return createProvider({ ...base, ...(spec.model === undefined ? {} : { model: spec.model }), provider, cwd: loaded.root });
}

/** How a report names a contender. */
export function contenderLabel(spec: ContenderSpec, provider: Provider | undefined): string {
  if (spec.kind === 'router') return 'router (no model)';
  if (spec.kind === 'scripted') return "scripted (each case's script, else the router alone)";
  if (spec.kind === 'profile') return `${spec.name} (${provider?.name ?? ''}:${provider?.model ?? ''})`;
  return provider === undefined ? 'router (no model)' : `${provider.name}:${provider.model}`;
}
