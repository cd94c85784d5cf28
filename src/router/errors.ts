import type { ErrorCatalogue } from '../core/index.js';

/** Every error code the router raises: programmer misuse and refused restores. Plan outcomes are data, not errors. */
export const routerErrorCodes = {
  router_invalid_catalogue: 'A catalogue entry is malformed: a name, a description, an object schema and an effect are required.',
  router_invalid_vocabulary: 'The vocabulary file does not parse or has a section of the wrong shape.',
  router_invalid_rulebook: 'The rulebook has an unknown key or a value of the wrong type.',
  router_invalid_context: 'context.now is not an RFC 3339 date-time with an offset.',
  router_missing_secret: 'createRouter needs a host secret to sign confirmation tokens and the check history.',
  router_unsupported_language: 'The language asked for is neither en nor pt-BR.',
  router_invalid_session: 'A saved session does not parse or is not in the format this router writes.',
  router_session_catalogue_mismatch: 'A saved session was read against another catalogue, vocabulary or rulebook than the router has.',
  router_plan_mismatch: 'A plan handed back to a session is not one of its plans, or has no step of the kind asked for.',
} as const satisfies ErrorCatalogue;

export type RouterErrorCode = keyof typeof routerErrorCodes;
