import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { PlumbError } from '../core/index.js';
import type { AdapterSettings } from './adapter-settings.js';
import { createAiSdkProvider } from './ai-sdk/ai-sdk-provider.js';
import { createAnthropicProvider } from './anthropic/anthropic-provider.js';
import { createGeminiProvider } from './gemini/gemini-provider.js';
import { createOllamaProvider } from './ollama/ollama-provider.js';
import { createOpenAiProvider } from './openai/openai-provider.js';
import type { Provider } from './protocol.js';
import { createScriptedProvider } from './scripted/scripted-provider.js';
import type { ScriptInput } from './scripted/script-schema.js';

export const BUILTIN_PROVIDERS = ['openai', 'anthropic', 'ollama', 'gemini', 'scripted'] as const;
export type BuiltinProviderName = (typeof BUILTIN_PROVIDERS)[number];

/** How a host (or `plumb.config`, or the CLI) names its provider. */
export interface ProviderConfig extends AdapterSettings {
  /**
   * A built-in name (`openai`, `anthropic`, `ollama`, `gemini`), `scripted:FILE`, a module
   * (`./my-provider.js`, `./my-provider.js#MyProvider`, `some-package#Provider`), a `Provider`
   * object, or an AI SDK v3 language model object.
   */
  readonly provider: string | Provider | LanguageModelV3;
  /** For `provider: "scripted"`: the script itself or its file. */
  readonly script?: ScriptInput | string;
  /** Where relative module paths and script files resolve from (default `process.cwd()`). */
  readonly cwd?: string;
}

/** Builds the configured provider. Unknown names fail with `provider_unknown`, listing the choices. */
export async function createProvider(config: ProviderConfig): Promise<Provider> {
  const { provider, script, cwd = process.cwd(), ...settings } = config;
  if (typeof provider === 'object' && provider !== null) return fromObject(provider, settings, 'the provider object');
  if (typeof provider !== 'string' || provider.trim() === '') throw unknownProvider(String(provider));
  const name = provider.trim();
  switch (name) {
    case 'openai':
      return createOpenAiProvider(settings);
    case 'anthropic':
      return createAnthropicProvider(settings);
    case 'ollama':
      return createOllamaProvider(settings);
    case 'gemini':
    case 'google':
      return createGeminiProvider(settings);
    case 'scripted':
      if (script === undefined) throw new PlumbError('provider_config_invalid', "The scripted provider needs a script: use 'scripted:FILE' or set script.");
      return createScriptedProvider(typeof script === 'string' ? resolve(cwd, script) : script);
    default:
      break;
  }
  if (name.startsWith('scripted:')) return createScriptedProvider(resolve(cwd, name.slice('scripted:'.length)));
  if (!looksLikeModule(name)) throw unknownProvider(name);
  return loadModuleProvider(name, settings, cwd);
}

function looksLikeModule(name: string): boolean {
  return /^(\.{1,2}\/|\/|file:)/.test(name) || isAbsolute(name) || /\.(m?js|cjs|ts|mts)(#|$)/.test(name) || name.includes('#') || name.startsWith('@');
}

function unknownProvider(name: string): PlumbError {
  return new PlumbError(
    'provider_unknown',
    `Unknown provider '${name}'. Use one of ${BUILTIN_PROVIDERS.filter((builtin) => builtin !== 'scripted').join(', ')}, scripted:FILE, or a module path such as ./my-provider.js#MyProvider.`,
    { details: { provider: name } },
  );
}

async function loadModuleProvider(spec: string, settings: AdapterSettings, cwd: string): Promise<Provider> {
  const hash = spec.lastIndexOf('#');
  const path = hash === -1 ? spec : spec.slice(0, hash);
  const exportName = hash === -1 ? undefined : spec.slice(hash + 1);
  const isPath = /^(\.{1,2}\/|\/|file:)/.test(path) || isAbsolute(path);
  const target = isPath && !path.startsWith('file:') ? pathToFileURL(resolve(cwd, path)).href : path;
  let module: Record<string, unknown>;
  try {
    module = (await import(target)) as Record<string, unknown>;
  } catch (error) {
    throw importFailure(spec, path, isPath, error);
  }
  const chosen = pickExport(module, exportName);
  if (chosen === undefined) {
    const names = Object.keys(module).join(', ') || '(none)';
    throw new PlumbError('provider_unknown', `The module '${path}' has no export ${exportName === undefined ? 'default' : `'${exportName}'`} to use as a provider. Exports: ${names}.`, {
      details: { provider: spec },
    });
  }
  let made: unknown = chosen;
  if (typeof chosen === 'function') {
    const candidate = chosen as { prototype?: { complete?: unknown; doStream?: unknown } };
    const isClass = /^class\b/.test(Function.prototype.toString.call(chosen)) || typeof candidate.prototype?.complete === 'function' || typeof candidate.prototype?.doStream === 'function';
    made = isClass ? new (chosen as new (settings: AdapterSettings) => unknown)(settings) : await (chosen as (settings: AdapterSettings) => unknown)(settings);
  }
  return fromObject(made, settings, spec);
}

function pickExport(module: Record<string, unknown>, exportName: string | undefined): unknown {
  if (exportName !== undefined && exportName !== '') return Object.hasOwn(module, exportName) ? module[exportName] : undefined;
  if (module.default !== undefined) return module.default;
  const candidates = Object.values(module).filter((value) => typeof value === 'function' || (typeof value === 'object' && value !== null));
  return candidates.length === 1 ? candidates[0] : undefined;
}

function fromObject(value: unknown, settings: AdapterSettings, spec: string): Provider {
  if (typeof value === 'object' && value !== null) {
    const record = value as Partial<Provider> & Partial<LanguageModelV3>;
    if (typeof record.doStream === 'function' && record.specificationVersion !== undefined) {
      return createAiSdkProvider(value as LanguageModelV3, settings);
    }
    if (typeof record.complete === 'function') {
      const custom = value as Provider;
      const name = typeof custom.name === 'string' && custom.name !== '' ? custom.name : (value.constructor?.name ?? 'custom');
      const model = typeof custom.model === 'string' && custom.model !== '' ? custom.model : (settings.model ?? 'custom');
      if (name === custom.name && model === custom.model && typeof custom.checkConfiguration === 'function') return custom;
      return {
        name,
        model,
        complete: (request) => custom.complete(request),
        checkConfiguration: () => (typeof custom.checkConfiguration === 'function' ? custom.checkConfiguration() : []),
        describe: () => ({ ...(typeof custom.describe === 'function' ? custom.describe() : {}), name, model }),
      };
    }
  }
  throw new PlumbError('provider_config_invalid', `'${spec}' is not a provider: it needs a complete(request) method returning an async iterable of provider events.`, {
    details: { provider: spec },
  });
}

function importFailure(spec: string, path: string, isPath: boolean, error: unknown): PlumbError {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_MODULE_NOT_FOUND') {
    const missing = /Cannot find package '([^']+)'/.exec(message)?.[1];
    if (missing !== undefined) {
      return new PlumbError('provider_package_missing', `The provider '${spec}' needs the package '${missing}', which is not installed. Install it: npm install ${missing}.`, {
        details: { provider: spec, package: missing },
        cause: error,
      });
    }
    if (isPath) return new PlumbError('provider_unknown', `No provider module at '${path}' (${message}).`, { details: { provider: spec }, cause: error });
  }
  return new PlumbError('provider_config_invalid', `Could not load the provider module '${path}': ${message}`, { details: { provider: spec }, cause: error });
}
