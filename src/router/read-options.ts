import type { DataExplanation, PreviousStep } from './data-reader.js';
import type { Language, OnUnread, RouterContext } from './types.js';

/** How one turn is read: its language, the host's context, and what the session brings to it. */
export interface ReadOptions {
  readonly language: Language;
  readonly context: RouterContext;
  readonly onUnread: OnUnread;
  readonly rephrasesSpent: number;
  readonly index: number;
  /** Read the turn with this tool (a reply that picked one of two candidates). */
  readonly forceTool?: string;
  /** The read steps of the session's last `run` plan, for a follow-up; none for a turn read on its own. */
  readonly previous?: readonly PreviousStep[];
  /** Receives each clause's data-reading explanation (`plumb route --explain`). */
  readonly explain?: (explanation: DataExplanation) => void;
}
