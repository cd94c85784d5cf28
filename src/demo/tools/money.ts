import { Decimal } from 'decimal.js';
import type { DemoOrderRow } from './demo-graphql.js';

/** What was charged, refunded and is still owed on an order, as exact decimals. */
export interface OrderMoney {
  readonly total: Decimal;
  readonly charged: Decimal;
  readonly refunded: Decimal;
  /** total − charged + refunded: what may still be charged. */
  readonly unpaid: Decimal;
  /** charged − refunded: what may still be refunded. */
  readonly refundable: Decimal;
}

export function orderMoney(order: DemoOrderRow): OrderMoney {
  let charged = new Decimal(0);
  let refunded = new Decimal(0);
  for (const payment of order.payments) {
    if (payment.kind === 'charge') charged = charged.plus(payment.amount);
    else refunded = refunded.plus(payment.amount);
  }
  const total = new Decimal(order.total);
  return { total, charged, refunded, unpaid: total.minus(charged).plus(refunded), refundable: charged.minus(refunded) };
}

export function money(value: Decimal): string {
  return value.toFixed(2);
}
