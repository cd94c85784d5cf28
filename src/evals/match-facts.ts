/**
 * Whether an answer states a fact: the fact's text appears as a whole, not inside a longer word or
 * number ("4" is not found in "4411" nor in "4.20"; "Bolt" is not found in "Bolts"). Case counts:
 * values are copied exactly.
 */
export function containsFact(answer: string, fact: string): boolean {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}]|\\p{N}[.,])${escape(fact)}(?![\\p{L}\\p{N}]|[.,]\\p{N})`, 'u');
  return pattern.test(answer);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
