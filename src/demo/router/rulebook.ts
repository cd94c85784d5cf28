/**
 * The demo's rulebook (YAML): calculations on (so that "how many open tasks does Apollo have?" is a
 * count over the read), one request to rephrase, receipts only to email addresses.
 */
export const demoRulebookYaml = `# Plumb demo rulebook
compute: true
maxRephrase: 1
askToRephrase: true
batchWrites: false
destinations:
  send_receipt.email: [email]
contextParameters: {}
onUnread: refuse
`;

/** The rulebook the demo app's reader uses: the demo rulebook (kept as a name of its own for hosts that import it). */
export const demoReadingRulebookYaml = demoRulebookYaml;
