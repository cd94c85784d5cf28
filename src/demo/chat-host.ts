import type { ChatApp, Tool, ToolSettingsInput } from '../tools/index.js';
import { demoReadingRulebookYaml, demoVocabularyYaml } from './router/index.js';
import { createDemoHostTools, demoToolSettings } from './tools/index.js';

/** What the demo adds to the chat stack: its own tools and tool settings, and its router words and rules. */
export interface DemoChatHost {
  readonly tools: readonly Tool[];
  readonly toolSettings: ToolSettingsInput;
  readonly vocabulary: string;
  readonly rulebook: string;
}

export function demoChatHost(app: ChatApp): DemoChatHost {
  return { tools: createDemoHostTools(app), toolSettings: demoToolSettings, vocabulary: demoVocabularyYaml, rulebook: demoReadingRulebookYaml };
}
