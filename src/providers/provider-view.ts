import type { Provider, ProviderSettingsView } from './protocol.js';

/** A provider's read-only settings: its own `describe()`, else its name and model. */
export function describeProvider(provider: Provider): ProviderSettingsView {
  return provider.describe?.() ?? { name: provider.name, model: provider.model };
}

/** The view in one line, for `plumb check`: each setting the provider shows, in a fixed order. */
export function providerSummary(view: ProviderSettingsView): string {
  const parts = [`model ${view.model}`];
  if (view.baseUrl !== undefined) parts.push(`baseUrl ${view.baseUrl}`);
  if ('apiKeySource' in view) parts.push(view.apiKeySource === undefined ? 'no API key' : `API key from ${view.apiKeySource}`);
  if (view.timeoutSeconds !== undefined) parts.push(`timeoutSeconds ${view.timeoutSeconds}`);
  if (view.streamTimeoutSeconds !== undefined) parts.push(`streamTimeoutSeconds ${view.streamTimeoutSeconds}`);
  if ('maxTokens' in view) parts.push(`maxTokens ${view.maxTokens ?? 'not sent'}`);
  if (view.parseTextToolCalls === true) parts.push('parseTextToolCalls');
  return `${view.name}: ${parts.join(', ')}`;
}
