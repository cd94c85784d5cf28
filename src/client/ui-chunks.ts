/**
 * The parts of the AI SDK's UI message stream protocol (`ai` 6, `UIMessageChunk`) that a Plumb turn
 * maps to. Declared here so that the client needs no `ai` at run time; a test checks that each is
 * one of the SDK's own chunk types.
 */
export type PlumbUiChunk =
  | { readonly type: 'start'; readonly messageId?: string; readonly messageMetadata?: PlumbMessageMetadata }
  | { readonly type: 'start-step' }
  | { readonly type: 'finish-step' }
  | { readonly type: 'text-start'; readonly id: string }
  | { readonly type: 'text-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'text-end'; readonly id: string }
  | { readonly type: 'tool-input-available'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown; readonly dynamic: true; readonly title?: string }
  | { readonly type: 'tool-output-available'; readonly toolCallId: string; readonly output: unknown; readonly dynamic: true }
  | { readonly type: 'tool-output-error'; readonly toolCallId: string; readonly errorText: string; readonly dynamic: true }
  | { readonly type: 'tool-output-denied'; readonly toolCallId: string }
  | { readonly type: 'tool-approval-request'; readonly approvalId: string; readonly toolCallId: string }
  | { readonly type: 'data-plumb-plan'; readonly data: unknown }
  | { readonly type: 'data-plumb-confirmation'; readonly id: string; readonly data: PlumbConfirmationData }
  | { readonly type: 'data-plumb-retry'; readonly data: unknown; readonly transient: true }
  | { readonly type: 'message-metadata'; readonly messageMetadata: PlumbMessageMetadata }
  | { readonly type: 'error'; readonly errorText: string }
  | { readonly type: 'finish'; readonly finishReason?: 'stop' | 'tool-calls' | 'error' | 'other'; readonly messageMetadata?: PlumbMessageMetadata };

/** What an assistant message of a Plumb turn carries as its metadata. */
export interface PlumbMessageMetadata {
  readonly plumb: {
    readonly threadId?: string;
    readonly turnId?: string;
    readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
    readonly error?: { readonly code: string; readonly message: string };
  };
}

/** The `data-plumb-confirmation` part beside a tool row awaiting approval: what the person confirms. */
export interface PlumbConfirmationData {
  readonly confirmationId: string;
  readonly tool: string;
  readonly input: unknown;
  readonly expiresAt: string;
  /** The sentence to confirm, when the server wrote one. */
  readonly message?: string;
}
