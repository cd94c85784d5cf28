import { nanoid } from 'nanoid';
import { PlumbError } from '../core/index.js';
import { DEFAULT_STREAM_TIMEOUT_SECONDS, DEFAULT_TIMEOUT_SECONDS, checkSeconds } from './stream-guard.js';

/** Settings every HTTP adapter accepts. Each adapter documents its own defaults. */
export interface AdapterSettings {
  /** The model name. */
  readonly model?: string;
  /** The API key; falls back to the provider's environment variable(s). */
  readonly apiKey?: string;
  /** The server root (`https://api.openai.com/v1`, `http://127.0.0.1:11434`, …). */
  readonly baseUrl?: string;
  /** Longest wait for the first event, seconds (default 60). */
  readonly timeoutSeconds?: number;
  /** Longest wait between later events, seconds (default 30). */
  readonly streamTimeoutSeconds?: number;
  /** Output token limit when the request gives none. */
  readonly maxTokens?: number;
  /** Read a completion that is only a JSON tool call as that call (default false; for small local models). */
  readonly parseTextToolCalls?: boolean;
  /** Extra request headers (e.g. OpenRouter's `HTTP-Referer`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `fetch` to use (default the global one). */
  readonly fetch?: typeof fetch;
  /** Where environment variables are read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Makes tool-call ids where the provider gives none (default `call_` + a random id). */
  readonly newId?: () => string;
}

const KNOWN_KEYS: ReadonlySet<string> = new Set([
  'model',
  'apiKey',
  'baseUrl',
  'timeoutSeconds',
  'streamTimeoutSeconds',
  'maxTokens',
  'parseTextToolCalls',
  'headers',
  'fetch',
  'env',
  'newId',
]);

/** The settings after defaults and validation. */
export interface ResolvedSettings {
  readonly model: string;
  readonly apiKey: string | undefined;
  /** Where the key came from (`apiKey` or the variable name), for messages. */
  readonly apiKeySource: string | undefined;
  readonly baseUrl: string;
  readonly timeoutSeconds: number;
  readonly streamTimeoutSeconds: number;
  readonly maxTokens: number | undefined;
  readonly parseTextToolCalls: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: typeof fetch;
  readonly newId: () => string;
}

export interface SettingsDefaults {
  readonly provider: string;
  readonly model: string;
  readonly baseUrl: string;
  readonly envKeys: readonly string[];
  readonly maxTokens?: number;
}

/** Validates settings (unknown keys, URL, numbers) and applies defaults; misuse throws `provider_config_invalid`. */
export function resolveSettings(settings: AdapterSettings, defaults: SettingsDefaults): ResolvedSettings {
  const { provider } = defaults;
  const unknown = Object.keys(settings).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) {
    throw invalid(provider, `unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `'${key}'`).join(', ')}. Settings: ${[...KNOWN_KEYS].join(', ')}`);
  }
  const model = settings.model ?? defaults.model;
  if (typeof model !== 'string' || model.trim() === '') throw invalid(provider, 'model must be a non-empty string');
  const baseUrl = validateBaseUrl(provider, settings.baseUrl ?? defaults.baseUrl);
  if (settings.maxTokens !== undefined && (!Number.isInteger(settings.maxTokens) || settings.maxTokens <= 0)) {
    throw invalid(provider, `maxTokens must be a positive integer, got ${String(settings.maxTokens)}`);
  }
  const env = settings.env ?? process.env;
  let apiKey = settings.apiKey;
  let apiKeySource: string | undefined = apiKey === undefined ? undefined : 'apiKey';
  if (apiKey === undefined) {
    for (const key of defaults.envKeys) {
      const value = env[key];
      if (value !== undefined && value !== '') {
        apiKey = value;
        apiKeySource = key;
        break;
      }
    }
  }
  let timeoutSeconds: number;
  let streamTimeoutSeconds: number;
  try {
    timeoutSeconds = checkSeconds('timeoutSeconds', settings.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS);
    streamTimeoutSeconds = checkSeconds('streamTimeoutSeconds', settings.streamTimeoutSeconds, DEFAULT_STREAM_TIMEOUT_SECONDS);
  } catch (error) {
    throw invalid(provider, (error as Error).message.replace(/\.$/, ''));
  }
  return Object.freeze({
    model,
    apiKey,
    apiKeySource,
    baseUrl,
    timeoutSeconds,
    streamTimeoutSeconds,
    maxTokens: settings.maxTokens ?? defaults.maxTokens,
    parseTextToolCalls: settings.parseTextToolCalls ?? false,
    headers: { ...(settings.headers ?? {}) },
    fetch: settings.fetch ?? globalThis.fetch,
    newId: settings.newId ?? (() => `call_${nanoid(16)}`),
  });
}

/** An http(s) URL with a host, without a trailing slash; anything else is a configuration error. */
export function validateBaseUrl(provider: string, value: unknown): string {
  if (typeof value !== 'string') throw invalid(provider, `baseUrl must be a string URL, got ${typeof value}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(provider, `baseUrl '${value}' is not a URL (expected e.g. http://127.0.0.1:11434)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(provider, `baseUrl '${value}' must use http or https, not ${url.protocol.replace(':', '')}`);
  }
  if (url.hostname === '') throw invalid(provider, `baseUrl '${value}' has no host`);
  if (url.search !== '' || url.hash !== '') throw invalid(provider, `baseUrl '${value}' must not have a query or fragment`);
  return url.toString().replace(/\/+$/, '');
}

function invalid(provider: string, what: string): PlumbError {
  return new PlumbError('provider_config_invalid', `Invalid ${provider} provider settings: ${what}.`, { details: { provider } });
}
