import type { Actor } from '../../core/index.js';
import type { ChatApp } from '../../tools/index.js';
import { toolError } from '../../tools/index.js';

/**
 * Runs one of the demo tools' fixed documents (values only in variables) as the actor, so the
 * shop's permissions apply to host tools exactly as to `query`.
 */
export async function runDemoGraphql<T>(
  app: ChatApp,
  actor: Actor,
  signal: AbortSignal,
  document: string,
  variables: Record<string, unknown>,
): Promise<T> {
  const result = await app.graphql({ actor, document, variables, signal });
  const first = result.errors?.[0];
  if (first !== undefined) {
    const code = first.extensions?.code;
    if (code === 'FORBIDDEN') throw toolError('forbidden', first.message);
    if (code === 'BAD_USER_INPUT' || code === 'NOT_FOUND') throw toolError('invalid_arguments', first.message);
    throw new Error(`Demo tool GraphQL failed: ${first.message}`);
  }
  return result.data as T;
}

export const orderDocument = `query DemoOrder($id: ID!) {
  order(id: $id) {
    id status total placedAt receiptEmail receiptSentAt
    customer { name email }
    lines { quantity unitPrice part { name sku } }
    payments { kind amount createdAt }
  }
}`;

export interface DemoOrderRow {
  readonly id: string;
  readonly status: string;
  readonly total: string;
  readonly placedAt: string;
  readonly receiptEmail: string | null;
  readonly receiptSentAt: string | null;
  readonly customer: { readonly name: string; readonly email: string } | null;
  readonly lines: readonly { readonly quantity: number; readonly unitPrice: string; readonly part: { readonly name: string; readonly sku: string } | null }[];
  readonly payments: readonly { readonly kind: 'charge' | 'refund'; readonly amount: string; readonly createdAt: string }[];
}

export async function loadOrder(app: ChatApp, actor: Actor, signal: AbortSignal, orderId: string): Promise<DemoOrderRow> {
  const data = await runDemoGraphql<{ order: DemoOrderRow | null }>(app, actor, signal, orderDocument, { id: orderId });
  if (data.order === null) throw toolError('invalid_arguments', `No order ${orderId} that you can see. Check the order number.`);
  return data.order;
}
