import { ProviderError } from '../provider-error.js';
import type { ResolvedSettings } from '../adapter-settings.js';
import type { WireFormat } from './http-provider.js';

/**
 * A wire's key rule: without a key (where `needed` says one is needed), `plumb check` reports
 * `provider_config_invalid` and a request fails with `provider_auth` before it is sent.
 */
export function apiKeyRequired(provider: string, message: string, needed: (settings: ResolvedSettings) => boolean = () => true): Pick<WireFormat, 'check' | 'precondition'> {
  const missing = (settings: ResolvedSettings): boolean => settings.apiKey === undefined && needed(settings);
  return {
    check: (settings) => (missing(settings) ? [{ code: 'provider_config_invalid', message }] : []),
    precondition: (settings) => (missing(settings) ? new ProviderError('provider_auth', message, { provider }) : undefined),
  };
}
